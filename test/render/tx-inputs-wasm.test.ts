// Byte output writes runs of plain transparent inputs in WebAssembly (assembly/tx-inputs.ts,
// src/render/input-wasm.ts); text output writes each member in JavaScript. With the module and
// with it turned off, byte output must be text output's bytes for every transaction of the shared vectors and
// for random scriptSigs (every push form, signatures with each hash type, negative zero,
// truncated pushes, non-push opcodes, OP_RETURN first, scripts over 10,000 bytes), for input
// counts and scripts beyond its areas, and its output must depend on nothing past the bytes it is given.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeTransaction, type Transaction } from '../../src/codec/tx/transaction.js';
import { isCoinbase, WireTxIn } from '../../src/codec/tx/transparent.js';
import { INPUT_AREA, inputRunWriter, setInputWasmEnabled } from '../../src/render/input-wasm.js';
import { txToJson, txToJsonBytes } from '../../src/render/tx.js';
import { vectorTransactions } from '../support/vector-transactions.js';

afterEach(() => setInputWasmEnabled(true));

/** Byte output, with the module and without, and text output of `tx`, which must be equal. */
function expectWasmEqualsText(tx: Transaction, network = MAINNET): void {
  setInputWasmEnabled(true);
  const bytes = txToJsonBytes(tx, network).toString('latin1');
  setInputWasmEnabled(false);
  const withoutModule = txToJsonBytes(tx, network).toString('latin1');
  setInputWasmEnabled(true);
  expect(bytes).toBe(txToJson(tx, network));
  expect(withoutModule).toBe(bytes);
}

/** A v1 transaction with these inputs (prevout, script, sequence) and no outputs. */
function v1Transaction(inputs: { prevout: Uint8Array; index: number; script: Uint8Array; sequence: number }[]): Transaction {
  const parts: Uint8Array[] = [Uint8Array.of(1, 0, 0, 0), compactSize(inputs.length)];
  for (const i of inputs) {
    parts.push(i.prevout, u32(i.index), compactSize(i.script.length), i.script, u32(i.sequence));
  }
  parts.push(compactSize(0), u32(0));
  return decodeTransaction(new Uint8Array(Buffer.concat(parts)));
}

function u32(n: number): Uint8Array {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

function compactSize(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >> 8);
  return Buffer.concat([Uint8Array.of(0xfe), u32(n)]);
}

/** A push of `data` in the given form (the smallest that fits when the form is too small). */
function push(data: Uint8Array, form: 0 | 1 | 2 | 4): Uint8Array {
  const n = data.length;
  if (form === 0 && n < 0x4c) return Buffer.concat([Uint8Array.of(n), data]);
  if (form <= 1 && n <= 0xff) return Buffer.concat([Uint8Array.of(0x4c, n), data]);
  if (form <= 2 && n <= 0xffff) return Buffer.concat([Uint8Array.of(0x4d, n & 0xff, n >> 8), data]);
  return Buffer.concat([Uint8Array.of(0x4e), u32(n), data]);
}

/** A strict-DER signature (with R and S of the given lengths, high bits cleared) and a hash-type byte. */
function derSignature(r: Uint8Array, s: Uint8Array, hashType: number): Uint8Array {
  const fix = (x: Uint8Array): Uint8Array => {
    const y = Uint8Array.from(x);
    y[0] = (y[0]! & 0x7f) | 0x01;
    return y;
  };
  const R = fix(r);
  const S = fix(s);
  return Uint8Array.from([0x30, 4 + R.length + S.length, 0x02, R.length, ...R, 0x02, S.length, ...S, hashType]);
}

/** A DER signature whose R and/or S carry a leading 0x00 before a byte with its high bit set. */
function paddedDerSignature(r: Uint8Array, s: Uint8Array, hashType: number, padR: boolean, padS: boolean): Uint8Array {
  const pad = (x: Uint8Array, on: boolean): Uint8Array => {
    const y = Uint8Array.from(x);
    if (!on) {
      y[0] = (y[0]! & 0x7f) | 0x01;
      return y;
    }
    y[0] = y[0]! | 0x80;
    return Uint8Array.from([0, ...y.subarray(0, 32)]);
  };
  const R = pad(r, padR);
  const S = pad(s, padS);
  return Uint8Array.from([0x30, 4 + R.length + S.length, 0x02, R.length, ...R, 0x02, S.length, ...S, hashType]);
}

const HASH_TYPES = [0x01, 0x02, 0x03, 0x81, 0x82, 0x83, 0x00, 0x04, 0x41, 0x80, 0x84, 0xff];

const pushForm = fc.constantFrom<0 | 1 | 2 | 4>(0, 1, 2, 4);
/** Hash-type bytes: the six with a suffix, near misses, and any byte. */
const hashType = fc.oneof(fc.constantFrom(...HASH_TYPES), fc.nat(255));
/** R or S of a signature: 1–33 bytes (fast-check's default size would stop near 10). */
const derInteger = fc.uint8Array({ minLength: 1, maxLength: 33, size: 'max' });
/** One element of a random scriptSig. */
const scriptPiece: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.tuple(fc.uint8Array({ maxLength: 4 }), pushForm).map(([d, f]) => push(d, f)),
  fc.constantFrom(Uint8Array.of(1, 0x80), Uint8Array.of(2, 0, 0x80), Uint8Array.of(4, 0xff, 0xff, 0xff, 0xff), Uint8Array.of(0)),
  fc.tuple(fc.uint8Array({ minLength: 5, maxLength: 90, size: 'max' }), pushForm).map(([d, f]) => push(d, f)),
  fc.tuple(derInteger, derInteger, hashType, pushForm).map(([r, s, t, f]) => push(derSignature(r, s, t), f)),
  // R and S with the 0x00 that a high first bit needs (33 bytes for a 32-byte value).
  fc
    .tuple(derInteger, derInteger, hashType, fc.boolean(), fc.boolean())
    .map(([r, s, t, padR, padS]) => push(paddedDerSignature(r, s, t, padR, padS), 0)),
  // A DER-shaped signature one byte off.
  fc.tuple(derInteger, derInteger, hashType, fc.nat(80), fc.nat(255)).map(([r, s, t, at, b]) => {
    const sig = derSignature(r, s, t);
    sig[at % sig.length] = b;
    return push(sig, 0);
  }),
  // A non-push opcode.
  fc.integer({ min: 0x4f, max: 0xff }).map((op) => Uint8Array.of(op)),
);
/** A push whose data runs past the script's end (it ends the script). */
const truncatedPush = fc.constantFrom(
  Uint8Array.of(0x05, 1, 2),
  Uint8Array.of(0x4c),
  Uint8Array.of(0x4c, 9, 1),
  Uint8Array.of(0x4d, 1),
  Uint8Array.of(0x4d, 0xff, 0xff, 1, 2, 3),
  Uint8Array.of(0x4e, 1, 2, 3),
  Uint8Array.of(0x4e, 0xff, 0xff, 0xff, 0xff, 1),
);
const scriptSig: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.boolean(), fc.array(scriptPiece, { maxLength: 6 }), fc.option(truncatedPush, { freq: 4 }))
  .map(([opReturn, pieces, tail]) => Buffer.concat([...(opReturn ? [Uint8Array.of(0x6a)] : []), ...pieces, ...(tail ? [tail] : [])]));
const input = fc.record({
  prevout: fc.uint8Array({ minLength: 32, maxLength: 32 }),
  index: fc.oneof(fc.nat(5), fc.constant(0xffffffff), fc.nat()),
  script: scriptSig,
  sequence: fc.oneof(fc.constant(0xffffffff), fc.constant(0), fc.nat(), fc.constant(0xfffffffe)),
});

describe('transparent inputs written in WebAssembly', () => {
  it('loads (built by npm run build:wasm)', () => {
    expect(inputRunWriter(), 'src/crypto/wasm/tx-inputs.wasm loads').not.toBeNull();
  });

  it('equals text output for every transaction of every block and transaction vector', () => {
    let transactions = 0;
    let plainInputs = 0;
    for (const { network, transactions: txs } of vectorTransactions()) {
      for (const tx of txs) {
        transactions++;
        if (!isCoinbase(tx.data.vin)) plainInputs += tx.data.vin.filter((i) => i instanceof WireTxIn).length;
        expectWasmEqualsText(tx, network);
      }
    }
    // The vectors hold 1,856 transactions with 20,997 plain inputs: not a handful that decoded.
    expect(transactions).toBeGreaterThan(1_800);
    expect(plainInputs).toBeGreaterThan(20_000);
  });

  it('equals text output on random scriptSigs (property)', () => {
    fc.assert(
      fc.property(fc.array(input, { minLength: 1, maxLength: 8 }), (inputs) => {
        expectWasmEqualsText(v1Transaction(inputs));
      }),
      { numRuns: 400 },
    );
  });

  it('writes scripts over 10,000 bytes without decoding their signatures, and with', () => {
    const sig = push(derSignature(new Uint8Array(32).fill(7), new Uint8Array(32).fill(9), 0x01), 0);
    const long = Buffer.concat([sig, push(new Uint8Array(10_000).fill(0xab), 2)]);
    const exact = Buffer.concat([sig, push(new Uint8Array(10_000 - sig.length - 3).fill(0xab), 2)]);
    expect(exact.length).toBe(10_000);
    const prevout = new Uint8Array(32).fill(3);
    const tx = v1Transaction([long, exact, long, exact, sig].map((script) => ({ prevout, index: 1, script, sequence: 5 })));
    expectWasmEqualsText(tx);
    const json = JSON.parse(txToJsonBytes(tx, MAINNET).toString('latin1')) as { vin: { scriptSig: { asm: string } }[] };
    expect(json.vin.map((i) => i.scriptSig.asm.includes('[ALL]'))).toEqual([false, true, false, true, true]);
  });

  it('writes thousands of inputs, and scripts longer than its areas, in chunks with the same output', () => {
    const prevout = new Uint8Array(32).fill(0x5a);
    const sig = push(derSignature(new Uint8Array(32).fill(1), new Uint8Array(32).fill(2), 0x81), 0);
    const inputs = Array.from({ length: 6_000 }, (_, i) => ({
      prevout,
      index: i,
      script:
        i % 997 === 5
          ? push(new Uint8Array(300_000).fill(i & 0xff), 4)
          : i % 1001 === 7
            ? push(new Uint8Array(100_000).fill(1), 4)
            : Buffer.concat([sig, push(new Uint8Array(400).fill(i & 0xff), 2)]),
      sequence: i,
    }));
    expectWasmEqualsText(v1Transaction(inputs));
  });

  it('writes what the bytes it is given hold, whatever follows them, on malformed bytes (property), and refuses more than its area', () => {
    const module = inputRunWriter()!;
    /** Serialized inputs cut anywhere, or random bytes of any length up to 400. */
    const someBytes = fc.oneof(
      fc.tuple(fc.array(input, { minLength: 1, maxLength: 4 }), fc.nat()).map(([inputs, cut]) => {
        const all = Buffer.concat(
          inputs.map((i) => Buffer.concat([i.prevout, u32(i.index), compactSize(i.script.length), i.script, u32(i.sequence)])),
        );
        return new Uint8Array(all.subarray(0, all.length - (cut % 8 === 0 ? 0 : cut % (all.length + 1))));
      }),
      fc.uint8Array({ maxLength: 400, size: 'max' }),
    );
    let written = 0;
    fc.assert(
      fc.property(someBytes, fc.uint8Array({ minLength: 64, maxLength: 64 }), fc.nat(20), (bytes, garbage, count) => {
        const results = [garbage, garbage.map((b) => b ^ 0xff)].map((after) => {
          module.load(Buffer.concat([bytes, after]), 0, bytes.length + after.length);
          const n = module.write(0, bytes.length, count);
          return { n, json: Buffer.from(module.output.subarray(0, module.outputLength())).toString('latin1') };
        });
        expect(results[0]).toEqual(results[1]);
        expect(results[0]!.n).toBeLessThanOrEqual(count);
        written += results[0]!.n;
      }),
      { numRuns: 2_000 },
    );
    // Not only refusals: whole inputs were written from the bytes given.
    expect(written).toBeGreaterThan(100);
    expect(() => module.load(new Uint8Array(INPUT_AREA + 1), 0, INPUT_AREA + 1)).toThrow(RangeError);
  });
});
