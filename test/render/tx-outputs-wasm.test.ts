// Byte output writes runs of P2PKH and P2SH outputs in WebAssembly (assembly/tx-outputs.ts,
// src/render/output-wasm.ts); text output writes each member in JavaScript. With the module and
// with it turned off, byte output must be text output's bytes for every transaction of the shared
// vectors and for random output lists (standard scripts, scripts one byte off, other scripts,
// hashes that evict each other's addresses, values across the whole int64 range), for output
// counts beyond its areas, and its output must depend on nothing past the bytes it is given.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { MAINNET, TESTNET } from '../../src/chain/network.js';
import { decodeTransaction, type Transaction } from '../../src/codec/tx/transaction.js';
import type { WireTxOut } from '../../src/codec/tx/transparent.js';
import { OUTPUT_RUN, OUTPUTS_AREA, outputRunWriter, setOutputWasmEnabled } from '../../src/render/output-wasm.js';
import { txToJson, txToJsonBytes } from '../../src/render/tx.js';
import { vectorTransactions } from '../support/vector-transactions.js';

afterEach(() => setOutputWasmEnabled(true));

/** A rendering's text, or the error it threw. */
function outcome(render: () => string): string {
  try {
    return render();
  } catch (e) {
    return `threw ${e instanceof Error ? e.name : String(e)}`;
  }
}

/** Byte output of `tx`, with the module and without, and its text output, which must be equal; returns the first. */
function expectWasmEqualsText(tx: Transaction, network = MAINNET): string {
  setOutputWasmEnabled(true);
  const bytes = outcome(() => txToJsonBytes(tx, network).toString('latin1'));
  setOutputWasmEnabled(false);
  const withoutModule = outcome(() => txToJsonBytes(tx, network).toString('latin1'));
  setOutputWasmEnabled(true);
  expect(bytes).toBe(outcome(() => txToJson(tx, network)));
  expect(withoutModule).toBe(bytes);
  return bytes;
}

interface Output {
  value: bigint;
  script: Uint8Array;
}

/**
 * A v1 transaction with one input and these outputs. Decoding accepts only values in
 * [0, MAX_MONEY], so the outputs are decoded with value 0 and their values written into the
 * decoded bytes afterwards, which the outputs read in place.
 */
function v1Transaction(outputs: Output[]): Transaction {
  const parts: Uint8Array[] = [
    Uint8Array.of(1, 0, 0, 0),
    compactSize(1),
    new Uint8Array(32).fill(9),
    u32(0),
    compactSize(1),
    Uint8Array.of(0x51),
  ];
  parts.push(u32(0xffffffff), compactSize(outputs.length));
  for (const o of outputs) parts.push(new Uint8Array(8), compactSize(o.script.length), o.script);
  parts.push(u32(0));
  const bytes = new Uint8Array(Buffer.concat(parts));
  const tx = decodeTransaction(bytes);
  const vout = tx.data.vout as WireTxOut[];
  outputs.forEach((o, i) => {
    const out = vout[i]!;
    new DataView(out.buf.buffer, out.buf.byteOffset).setBigInt64(out.at, o.value, true);
  });
  // The values are read from the bytes changed (not from a copy made while decoding).
  if (outputs.length > 0 && BigInt.asIntN(64, outputs[0]!.value) === 1n) expect(vout[0]!.value).toBe(1);
  return tx;
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

const p2pkh = (hash: Uint8Array): Uint8Array => Uint8Array.from([0x76, 0xa9, 0x14, ...hash, 0x88, 0xac]);
const p2sh = (hash: Uint8Array): Uint8Array => Uint8Array.from([0xa9, 0x14, ...hash, 0x87]);

const MAX_MONEY = 21_000_000n * 100_000_000n;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
/** Values at every boundary the writers know: zero, MAX_MONEY, JsonWriter's ordinary amounts (2^52), exact numbers (2^53), int64. */
const EDGE_VALUES = [
  0n,
  1n,
  -1n,
  99_999_999n,
  100_000_000n,
  -100_000_000n,
  MAX_MONEY,
  MAX_MONEY + 1n,
  -MAX_MONEY,
  (1n << 52n) - 1n,
  1n << 52n,
  -(1n << 52n) + 1n,
  -(1n << 52n),
  (1n << 53n) - 1n,
  1n << 53n,
  -(1n << 53n),
  INT64_MIN,
  INT64_MAX,
];
/** Mostly values a list renders with (beyond ±2^53 every writer throws, and the whole list with it). */
const value = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EDGE_VALUES.filter((v) => v > -(1n << 53n) && v < 1n << 53n)) },
  { weight: 8, arbitrary: fc.bigInt({ min: 0n, max: MAX_MONEY }) },
  { weight: 4, arbitrary: fc.bigInt({ min: -(1n << 53n) + 1n, max: (1n << 53n) - 1n }) },
  { weight: 1, arbitrary: fc.constantFrom(...EDGE_VALUES) },
  { weight: 1, arbitrary: fc.bigInt({ min: INT64_MIN, max: INT64_MAX }) },
);
/** Hashes: any, or among a few that share their first two bytes (one address-table slot), so evicting one another. */
const hash = fc.oneof(
  fc.uint8Array({ minLength: 20, maxLength: 20 }),
  fc
    .tuple(fc.constantFrom(0x00, 0xff), fc.nat(3))
    .map(([b, k]) => Uint8Array.from({ length: 20 }, (_, i) => (i < 2 ? 0x42 : i === 19 ? k : b))),
);
const standardScript = fc.tuple(fc.boolean(), hash).map(([pkh, h]) => (pkh ? p2pkh(h) : p2sh(h)));
/** A standard script with one byte changed, one byte more or one fewer. */
const lookalike = fc.tuple(standardScript, fc.nat(30), fc.nat(255), fc.constantFrom('set', 'append', 'drop')).map(([s, at, b, how]) => {
  if (how === 'append') return Uint8Array.from([...s, b]);
  if (how === 'drop') return s.subarray(0, s.length - 1);
  const t = Uint8Array.from(s);
  t[at % t.length] = b;
  return t;
});
const script = fc.oneof(
  { weight: 6, arbitrary: standardScript },
  { weight: 2, arbitrary: lookalike },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40, size: 'max' }) },
);
const output = fc.record({ value, script });

describe('transparent outputs written in WebAssembly', () => {
  it('loads (built by npm run build:wasm)', () => {
    expect(outputRunWriter(), 'src/crypto/wasm/tx-outputs.wasm loads').not.toBeNull();
  });

  it('equals text output for every transaction of every block and transaction vector', () => {
    let transactions = 0;
    let standardOutputs = 0;
    for (const { network, transactions: txs } of vectorTransactions()) {
      for (const tx of txs) {
        transactions++;
        const json = JSON.parse(expectWasmEqualsText(tx, network)) as { vout: { scriptPubKey: { type: string } }[] };
        standardOutputs += json.vout.filter((o) => o.scriptPubKey.type === 'pubkeyhash' || o.scriptPubKey.type === 'scripthash').length;
      }
    }
    // Not a handful that decoded: the vectors' transactions and their P2PKH and P2SH outputs.
    expect(transactions).toBeGreaterThan(1_800);
    expect(standardOutputs).toBeGreaterThan(5_000);
  });

  it('equals JavaScript and text output on random output lists (property)', () => {
    let written = 0;
    fc.assert(
      fc.property(fc.array(output, { maxLength: 24, size: 'max' }), fc.boolean(), (outputs, testnet) => {
        if (!expectWasmEqualsText(v1Transaction(outputs), testnet ? TESTNET : MAINNET).startsWith('threw')) written++;
      }),
      { numRuns: 600 },
    );
    // Not only lists that fail to render (a value beyond 2^53 makes every writer throw).
    expect(written).toBeGreaterThan(100);
  });

  it('writes every edge value of P2PKH and P2SH outputs as JavaScript does', () => {
    const h = Uint8Array.from({ length: 20 }, (_, i) => i * 13);
    for (const v of EDGE_VALUES) {
      for (const s of [p2pkh(h), p2sh(h)]) {
        const text = expectWasmEqualsText(
          v1Transaction([
            { value: 5n, script: s },
            { value: v, script: s },
            { value: 7n, script: s },
          ]),
        );
        if (v > -(1n << 53n) && v < 1n << 53n) expect(text).toContain(`"valueZat":${v},`);
      }
    }
  });

  it('writes tens of thousands of outputs in chunks, within its fixed memory, with the same output', () => {
    const module = outputRunWriter()!;
    const memory = module.output.buffer;
    const size = memory.byteLength;
    const outputs: Output[] = Array.from({ length: 3 * OUTPUT_RUN + 123 }, (_, i) => {
      const h = Uint8Array.from({ length: 20 }, (_, j) => (j < 2 ? i % 7 : (i * 31 + j) & 0xff));
      const value = i % 1_999 === 5 ? 1n << 52n : BigInt(i) * 12_345_678n;
      const script = i % 2_503 === 11 ? Uint8Array.of(0x6a, 1, 2) : i % 3 === 0 ? p2sh(h) : p2pkh(h);
      return { value, script };
    });
    const text = expectWasmEqualsText(v1Transaction(outputs));
    expect((JSON.parse(text) as { vout: unknown[] }).vout).toHaveLength(outputs.length);
    expect(module.output.buffer).toBe(memory);
    expect(memory.byteLength).toBe(size);
  });

  it('writes what the bytes and records it is given hold, whatever follows them (property), and refuses more than its areas', () => {
    const module = outputRunWriter()!;
    const serialized = (outputs: Output[]): Uint8Array =>
      Buffer.concat(
        outputs.map((o) => {
          const v = Buffer.alloc(8);
          v.writeBigInt64LE(BigInt.asIntN(64, o.value));
          return Buffer.concat([v, compactSize(o.script.length), o.script]);
        }),
      );
    const someBytes = fc.oneof(
      fc.tuple(fc.array(output, { minLength: 1, maxLength: 6 }), fc.nat()).map(([outputs, cut]) => {
        const all = serialized(outputs);
        return all.subarray(0, all.length - (cut % 4 === 0 ? 0 : cut % (all.length + 1)));
      }),
      fc.uint8Array({ maxLength: 200, size: 'max' }),
    );
    /** An address record's text: Base58 characters, of any length the module may be given (0–40). */
    const address = fc.string({
      unit: fc.constantFrom(...'123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'),
      maxLength: 40,
      size: 'max',
    });
    let written = 0;
    fc.assert(
      fc.property(
        someBytes,
        fc.array(address, { minLength: 8, maxLength: 8 }),
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        fc.nat(8),
        fc.nat(0xffffffff - 8),
        (bytes, addresses, garbage, count, n) => {
          const results = [garbage, garbage.map((b) => b ^ 0xff)].map((after) => {
            module.load(Buffer.concat([bytes, after]), 0, bytes.length + after.length);
            addresses.forEach((a, k) => {
              // The text lies amid other bytes, as in a table's slot.
              const slot = Buffer.concat([after.subarray(0, 3), Buffer.from(a, 'latin1'), after]);
              module.setAddress(k, slot, 3, a.length);
            });
            const done = module.write(0, bytes.length, count, 0, n);
            return { done, json: Buffer.from(module.output.subarray(0, module.outputLength())).toString('latin1') };
          });
          expect(results[0]).toEqual(results[1]);
          expect(results[0]!.done).toBeLessThanOrEqual(count);
          if (results[0]!.done > 0) {
            const parsed = JSON.parse(`[${results[0]!.json}]`) as { n: number; scriptPubKey: { addresses: string[] } }[];
            expect(parsed.map((o) => o.n)).toEqual(parsed.map((_, k) => n + k));
            expect(parsed.map((o) => o.scriptPubKey.addresses[0])).toEqual(addresses.slice(0, parsed.length));
          }
          written += results[0]!.done;
        },
      ),
      { numRuns: 2_000 },
    );
    // Not only refusals: whole outputs were written from the bytes given.
    expect(written).toBeGreaterThan(100);
    expect(() => module.load(new Uint8Array(OUTPUTS_AREA + 1), 0, OUTPUTS_AREA + 1)).toThrow(RangeError);
    expect(() => module.setAddress(OUTPUT_RUN, new Uint8Array(64), 1, 34)).toThrow(RangeError);
    expect(() => module.write(0, 100, 2, OUTPUT_RUN - 1, 0)).toThrow(RangeError);
  });
});
