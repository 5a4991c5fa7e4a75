// A transaction reply rendered in one of the transparent inputs module's reply slots
// (src/render/input-wasm.ts): the module writes runs of inputs, and a transaction's `hex`, in place
// into the reply. Over every transaction of the vectors, plain and as getrawtransaction's verbose
// form, and into slots so nearly full that the module runs out of room mid-run (the host then writes
// inputs itself and the reply moves to memory of its own), the reply is text output's bytes. Slots
// are lent once each, eight at most, and a reply held in one is not touched by replies rendered in
// the others; the reply pool keeps a slot as it keeps a buffer and gives it back when it drops it.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { MAINNET, TESTNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { decodeTransaction, type Transaction } from '../../src/codec/tx/transaction.js';
import type { WireTxIn } from '../../src/codec/tx/transparent.js';
import { JsonWriter } from '../../src/json/writer.js';
import {
  INPUT_AREA,
  inputRunWriter,
  REPLY_SLOT_BYTES,
  REPLY_SLOTS,
  returnReplySlot,
  setInputWasmEnabled,
} from '../../src/render/input-wasm.js';
import { txToJson, txToJsonBytesInto, writeTxJson, type TxJsonExtras } from '../../src/render/tx.js';
import { LentReplyMemory } from '../../src/rpc/methods/reply-memory.js';
import { readHexVector } from '../support/vectors.js';
import { vectorTransactions } from '../support/vector-transactions.js';

afterEach(() => setInputWasmEnabled(true));

const module = inputRunWriter()!;
const VERBOSE: TxJsonExtras = {
  leadingHex: true,
  inActiveChain: true,
  block: { hash: new Uint8Array(32).fill(7), height: 9, confirmations: 3, time: 1_500_000_000 },
};

function asText(tx: Transaction, network: typeof MAINNET, extras: TxJsonExtras = {}): string {
  const w = new JsonWriter();
  writeTxJson(w, tx, network, extras);
  return w.toString();
}

/** `fn` with a slot lent for it, given back afterwards. */
function withSlot<T>(fn: (slot: Buffer) => T): T {
  const slot = module.lendSlot();
  expect(slot).not.toBeNull();
  try {
    return fn(slot!);
  } finally {
    module.returnSlot(slot!);
  }
}

const [test141042, main106598] = [
  decodeBlock(readHexVector('blocks', 'testnet', '141042.hex')).transactions[1]!,
  decodeBlock(readHexVector('zcashd-2019', '106598.hex')).transactions[40]!,
];

describe('replies in the inputs module’s reply slots', () => {
  it('equal text output for every transaction of the vectors, plain and verbose, written in place', () => {
    let inPlace = 0;
    withSlot((slot) => {
      for (const { network, transactions } of vectorTransactions()) {
        for (const tx of transactions) {
          const plain = txToJsonBytesInto(slot, tx, network);
          if (plain.buffer === module.memory) inPlace++;
          expect(plain.toString('latin1')).toBe(txToJson(tx, network));
          expect(txToJsonBytesInto(slot, tx, network, VERBOSE).toString('latin1')).toBe(asText(tx, network, VERBOSE));
        }
      }
    });
    expect(inPlace).toBeGreaterThan(1_800);
  });

  it('equal text output when the slot runs out of room mid-run, at any point', () => {
    withSlot((slot) => {
      for (const [tx, network] of [
        [test141042, TESTNET],
        [main106598, MAINNET],
      ] as const) {
        const text = [txToJson(tx, network), asText(tx, network, VERBOSE)];
        const full = txToJsonBytesInto(slot, tx, network).length;
        // The room left: none of the inputs, some, all but the last bytes, and all of them.
        for (const room of [16, 700, 5_000, 60_000, 250_000, full - 3_000, full - 40, full + 64]) {
          const tail = slot.subarray(slot.length - room);
          expect(txToJsonBytesInto(tail, tx, network).toString('latin1'), `${room} bytes`).toBe(text[0]);
          expect(txToJsonBytesInto(tail, tx, network, VERBOSE).toString('latin1'), `${room} bytes, verbose`).toBe(text[1]);
        }
      }
    });
  });

  it('are written in JavaScript, with the same bytes, when the module is turned off', () => {
    withSlot((slot) => {
      const text = txToJson(main106598, MAINNET);
      setInputWasmEnabled(false);
      expect(txToJsonBytesInto(slot, main106598, MAINNET).toString('latin1')).toBe(text);
    });
  });

  it('are not touched by replies rendered in the other slots', () => {
    const slots = Array.from({ length: REPLY_SLOTS }, () => module.lendSlot()!);
    try {
      expect(module.lendSlot()).toBeNull();
      expect(new Set(slots.map((s) => s.byteOffset)).size).toBe(REPLY_SLOTS);
      const txs = [test141042, main106598];
      const replies = slots.map((s, i) => txToJsonBytesInto(s, txs[i % 2]!, i % 2 ? MAINNET : TESTNET, i % 3 ? {} : VERBOSE));
      replies.forEach((r, i) => {
        expect(r.buffer).toBe(module.memory);
        expect(r.toString('latin1'), `slot ${i}`).toBe(asText(txs[i % 2]!, i % 2 ? MAINNET : TESTNET, i % 3 ? {} : VERBOSE));
      });
    } finally {
      for (const s of slots) module.returnSlot(s);
    }
    expect(() => module.returnSlot(slots[0]!)).toThrow();
    expect(() => module.returnSlot(Buffer.alloc(REPLY_SLOT_BYTES))).toThrow();
    expect(returnReplySlot(Buffer.alloc(16))).toBe(false);
  });

  it('take the inputs from the transaction encodeHexAt copied while it is held, and copy them again once released', () => {
    withSlot((slot) => {
      const bytes = Uint8Array.from(test141042.bytes);
      const vin = decodeTransaction(bytes).data.vin as readonly unknown[] as readonly WireTxIn[];
      const base = vin[0]!.at;
      const end = vin[1]!.at;
      const firstInput = () => {
        module.load(bytes, base, end);
        expect(module.write(0, end - base, 1)).toBe(1);
        return Buffer.from(module.output.subarray(0, module.outputLength())).toString('latin1');
      };
      module.releaseHeld();
      const before = firstInput();
      expect(module.encodeHexAt(bytes, slot.byteOffset)).toBe(true);
      bytes[base]! ^= 0xff; // the first prevout's last hex digits, as printed
      expect(firstInput(), 'held: the copy made for the hex').toBe(before);
      module.releaseHeld();
      const after = firstInput();
      expect(after).not.toBe(before);
      expect(after.slice(0, 9 + 62)).toBe(before.slice(0, 9 + 62));
    });
  });

  it('render a transaction whose memory held another one rendered before it, the module releasing what it held', () => {
    withSlot((slot) => {
      const bytes = Uint8Array.from(test141042.bytes);
      const first = decodeTransaction(bytes);
      expect(txToJsonBytesInto(slot, first, TESTNET, VERBOSE).toString('latin1')).toBe(asText(first, TESTNET, VERBOSE));
      // Another transaction in the same memory (as a reused decoding buffer holds the next
      // request's), rendered with its hex text given, so that nothing copies it to the module
      // before its inputs are loaded.
      bytes[(first.data.vin[0] as unknown as WireTxIn).at]! ^= 0xff;
      const second = decodeTransaction(bytes);
      const hexText = Buffer.from(toHex(bytes), 'latin1');
      expect(txToJsonBytesInto(slot, second, TESTNET, {}, hexText).toString('latin1')).toBe(txToJson(second, TESTNET));
      expect(txToJson(second, TESTNET)).not.toBe(txToJson(first, TESTNET));
    });
  });

  it("encode a transaction's hex in the module as HexStr, up to its input area (property)", () => {
    withSlot((slot) => {
      const dst = slot.byteOffset + 3;
      const mem = new Uint8Array(module.memory);
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 3_000, size: 'max' }), (bytes) => {
          expect(module.encodeHexAt(bytes, dst)).toBe(true);
          expect(Buffer.from(mem.subarray(dst, dst + 2 * bytes.length)).toString('latin1')).toBe(toHex(bytes));
        }),
      );
      const long = new Uint8Array(INPUT_AREA).map((_, i) => i * 29);
      expect(module.encodeHexAt(long, dst)).toBe(true);
      expect(Buffer.from(mem.subarray(dst, dst + 2 * long.length)).toString('latin1')).toBe(toHex(long));
      expect(module.encodeHexAt(new Uint8Array(INPUT_AREA + 1), dst)).toBe(false);
    });
  });
});

describe('the reply pool and the slots', () => {
  const scope = () => {
    const releases: (() => void)[] = [];
    return { hold: (r: () => void) => releases.push(r), releases };
  };

  it('lends a slot for a reply with inputs in the module, keeps it, lends it again, and gives it back when it drops it', () => {
    const pool = new LentReplyMemory();
    const s = scope();
    const slot = pool.lend(s, 400_000, true)!;
    expect(slot.buffer).toBe(module.memory);
    const h = scope();
    expect(pool.lend(h, 400_000)!.buffer).not.toBe(module.memory);
    for (const r of s.releases) r();
    expect(pool.stats()).toEqual({ lent: 1, kept: 1 });
    const t = scope();
    expect(pool.lend(t, 400_000, true)).toBe(slot);
    // Every slot out: a reply with inputs gets a buffer of the pool's own.
    const rest: Buffer[] = [];
    for (let b = module.lendSlot(); b !== null; b = module.lendSlot()) rest.push(b);
    const u = scope();
    expect(pool.lend(u, 400_000, true)!.buffer).not.toBe(module.memory);
    for (const b of rest) module.returnSlot(b);
    for (const r of [...t.releases, ...u.releases, ...h.releases]) r();
    expect(pool.stats()).toEqual({ lent: 0, kept: 3 });
    expect(pool.dropKept()).toBe(3 * REPLY_SLOT_BYTES);
    // Every slot is free again.
    const all = Array.from({ length: REPLY_SLOTS }, () => module.lendSlot());
    expect(all.every((b) => b !== null)).toBe(true);
    for (const b of all) module.returnSlot(b!);
  });

  it('drops a kept slot back to the module', () => {
    const pool = new LentReplyMemory();
    const scopes = Array.from({ length: REPLY_SLOTS }, scope);
    const slots = scopes.map((s) => pool.lend(s, 1_000, true)!);
    expect(slots.every((b) => b.buffer === module.memory)).toBe(true);
    expect(module.lendSlot()).toBeNull();
    for (const s of scopes) for (const r of s.releases) r();
    expect(module.lendSlot()).toBeNull();
    expect(pool.dropKept()).toBeGreaterThan(0);
    const back = Array.from({ length: REPLY_SLOTS }, () => module.lendSlot());
    expect(back.every((b) => b !== null)).toBe(true);
    for (const b of back) module.returnSlot(b!);
  });
});
