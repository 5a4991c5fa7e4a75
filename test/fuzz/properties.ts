// The decoder's robustness contract, shared by the CI fuzz tests (test/fuzz/*.test.ts) and the
// long run (test/long/fuzz-long.ts):
//   * any input either decodes or throws a DecodeError — nothing else escapes, nothing hangs;
//   * a DecodeError carries one of zcashd's texts and an offset inside the input;
//   * a successful decode re-encodes to exactly the bytes it consumed, and its ids compute;
//   * the quick transaction reader and the general, field-by-field one reach the same verdict, and
//     so does a reader over a larger buffer (as a block's transactions are read);
//   * it renders (decoderawtransaction's JSON) to the same text through the text and the byte
//     writer, that text parses, and its hex, txid, size and scripts agree with the decode (the
//     scripts' asm as rendered from their byte range inside the transaction against the asm of
//     each script on its own, so a range read past its end shows; the addresses against
//     bs58check); a decoded block renders getblock 2 the same through both writers.
import bs58check from 'bs58check';
import fc from 'fast-check';
import { networkParams } from '../../src/chain/network.js';
import { decodeBlock, encodeBlock } from '../../src/codec/block.js';
import { ByteReader } from '../../src/codec/bytes.js';
import { DecodeError } from '../../src/codec/errors.js';
import { toHex } from '../../src/codec/hex.js';
import { scriptToAsm } from '../../src/codec/script/asm.js';
import { solveScript } from '../../src/codec/script/solver.js';
import {
  decodeTransaction,
  decodeTransactionFieldByField,
  encodeTransaction,
  readTransaction,
  Transaction,
} from '../../src/codec/tx/transaction.js';
import { ZCASHD_6_12_2_ACCEPTANCE, type TxAcceptance } from '../../src/codec/tx/acceptance.js';
import { blockToJson, blockToJsonBytes } from '../../src/render/block.js';
import { txToJson, txToJsonBytes } from '../../src/render/tx.js';
import { currentChainTransactions, realTransactions } from './corpus.js';

const S = ': unspecified iostream_category error';
const EOD = `CBaseDataStream::read\\(\\): end of data${S}`;
const RUST_INNER = [
  EOD,
  'non-canonical CompactSize',
  'CompactSize too large',
  'invalid cv',
  'base value not a valid field element',
  'verification key is invalid',
  'cmu not in field',
  'valueBalance out of range',
  'nonzero valueBalanceSapling has no sources or sinks',
  'invalid Pallas point for value commitment',
  'invalid Pallas point for nullifier',
  'invalid verification key',
  'invalid Pallas base for field cmx',
  'invalid Orchard flags',
  'invalid Orchard anchor',
].join('|');
/**
 * Every `what` zcashd v6.12.2 can produce while decoding (transaction-format.md §1.9), and the
 * Ironwood bundle's, which reads as the Orchard bundle and is named after its component.
 */
export const KNOWN_WHAT = new RegExp(
  `^(?:${EOD}|non-canonical ReadCompactSize\\(\\)${S}|ReadCompactSize\\(\\): size too large${S}` +
    `|Unknown transaction format${S}|lead byte of G[12] point not recognized${S}` +
    `|CTransaction::UpdateHash: Invalid transaction format${S}` +
    `|Failed to parse (?:v4 Sapling bundle|v5 Sapling bundle|Orchard bundle|Ironwood bundle): (?:${RUST_INNER})${S})$`,
);

export type Outcome = 'decoded' | 'rejected';

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function checkError(e: unknown, input: Uint8Array): 'rejected' {
  if (!(e instanceof DecodeError)) throw new Error(`non-DecodeError escaped: ${String(e)}`);
  if (!KNOWN_WHAT.test(e.what)) throw new Error(`unknown message: ${e.what}`);
  if (!(e.offset >= 0 && e.offset <= input.length)) throw new Error(`offset ${e.offset} outside 0..${input.length}`);
  return 'rejected';
}

/**
 * Decodes `input` as a transaction (read as `acceptance` reads, zcashd v6.12.2's by default) and
 * checks the contract; throws a plain Error on violation.
 */
export function checkTransaction(input: Uint8Array, acceptance: TxAcceptance = ZCASHD_6_12_2_ACCEPTANCE): Outcome {
  let tx;
  try {
    tx = decodeTransaction(input, acceptance);
  } catch (e) {
    sameVerdictFieldByField(input, e, acceptance);
    sameVerdictInsideBuffer(input, e, acceptance);
    return checkError(e, input);
  }
  sameVerdictFieldByField(input, tx, acceptance);
  sameVerdictInsideBuffer(input, tx, acceptance);
  const consumed = input.subarray(0, tx.size);
  if (!sameBytes(encodeTransaction(tx.data), consumed)) throw new Error('re-encoding differs from the consumed bytes');
  if (tx.txid.length !== 32 || tx.authDigest.length !== 32) throw new Error('bad id length');
  checkRendering(tx, consumed);
  return 'decoded';
}

/**
 * decodeTransaction reads most transactions through a quick path; the general readers
 * alone must reach the same verdict: the same error at the same offset, or the same bytes and ids.
 */
function sameVerdictFieldByField(input: Uint8Array, quick: Transaction | unknown, acceptance: TxAcceptance): void {
  let general: Transaction;
  try {
    general = decodeTransactionFieldByField(input, acceptance);
  } catch (e) {
    if (quick instanceof Transaction) throw new Error(`only the general reader rejects: ${String(e)}`);
    const q = quick as DecodeError;
    if (!(e instanceof DecodeError) || e.reason !== q.reason || e.offset !== q.offset || e.what !== q.what)
      throw new Error(`readers reject differently: ${String(quick)} / ${String(e)}`);
    return;
  }
  if (!(quick instanceof Transaction)) throw new Error(`only the quick reader rejects: ${String(quick)}`);
  const g = general.data;
  const q = quick.data;
  const sameHeader =
    g.format === q.format &&
    g.overwintered === q.overwintered &&
    g.version === q.version &&
    g.versionGroupId === q.versionGroupId &&
    g.consensusBranchId === q.consensusBranchId &&
    g.lockTime === q.lockTime &&
    g.expiryHeight === q.expiryHeight;
  if (
    !sameHeader ||
    general.size !== quick.size ||
    !sameBytes(general.txid, quick.txid) ||
    !sameBytes(encodeTransaction(g), encodeTransaction(q))
  )
    throw new Error('readers decode differently');
}

/**
 * The same transaction read as a block's transactions are, by a reader over a larger buffer
 * whose bytes past the reader's end are not zero: the verdict must not change (an error's
 * offset moves by where the reader starts), and the reader must end just after the transaction.
 */
function sameVerdictInsideBuffer(input: Uint8Array, alone: Transaction | unknown, acceptance: TxAcceptance): void {
  const framed = new Uint8Array(input.length + 4).fill(0xa5);
  framed.set(input, 1);
  const r = new ByteReader(framed, 1, 1 + input.length);
  let tx: Transaction;
  try {
    tx = readTransaction(r, acceptance);
  } catch (e) {
    const a = alone as DecodeError;
    if (
      alone instanceof Transaction ||
      !(e instanceof DecodeError) ||
      e.reason !== a.reason ||
      e.offset !== a.offset + 1 ||
      e.what !== a.what
    )
      throw new Error(`a reader inside a buffer rejects differently: ${String(e)} / ${String(alone)}`);
    return;
  }
  if (!(alone instanceof Transaction) || tx.size !== alone.size || r.pos !== 1 + tx.size || !sameBytes(tx.txid, alone.txid))
    throw new Error('a reader inside a buffer decodes differently');
}

const MAINNET = networkParams('mainnet');

interface RenderedScript {
  asm: string;
  hex: string;
}

/** The rendering contract above; throws a plain Error on violation. */
function checkRendering(tx: Transaction, consumed: Uint8Array): void {
  const text = txToJson(tx, MAINNET);
  if (txToJsonBytes(tx, MAINNET).toString('utf8') !== text) throw new Error('byte rendering differs from text rendering');
  let json: {
    hex: string;
    txid: string;
    size: number;
    vin: { coinbase?: string; scriptSig?: RenderedScript }[];
    vout: { scriptPubKey: RenderedScript & { addresses?: string[] } }[];
  };
  try {
    json = JSON.parse(text) as typeof json;
  } catch (e) {
    throw new Error(`rendering is not JSON: ${String(e)}`);
  }
  if (json.hex !== toHex(consumed) || json.txid !== tx.txidHex || json.size !== consumed.length)
    throw new Error('rendered hex, txid or size differs');
  const { vin, vout } = tx.data;
  if (json.vin.length !== vin.length || json.vout.length !== vout.length) throw new Error('rendered vin or vout count differs');
  vin.forEach((input, i) => {
    const rendered = json.vin[i]!;
    const ok = tx.isCoinbase
      ? rendered.coinbase === toHex(input.scriptSig)
      : rendered.scriptSig?.hex === toHex(input.scriptSig) && rendered.scriptSig.asm === scriptToAsm(input.scriptSig, true);
    if (!ok) throw new Error(`rendered input ${i} differs from its script`);
  });
  vout.forEach((output, i) => {
    const rendered = json.vout[i]!.scriptPubKey;
    if (rendered.hex !== toHex(output.scriptPubKey) || rendered.asm !== scriptToAsm(output.scriptPubKey, false)) {
      throw new Error(`rendered output ${i} differs from its script`);
    }
    // Addresses against bs58check, independently of the renderer's encoder and address table.
    const destinations = solveScript(output.scriptPubKey).destinations ?? [];
    const expected = destinations.map((d) =>
      bs58check.encode(Uint8Array.from([...(d.kind === 'p2pkh' ? MAINNET.p2pkhPrefix : MAINNET.p2shPrefix), ...d.hash])),
    );
    if ((rendered.addresses ?? []).join() !== expected.join()) throw new Error(`rendered output ${i}'s addresses differ from bs58check`);
  });
}

/** Same contract for blocks. */
export function checkBlock(input: Uint8Array, acceptance: TxAcceptance = ZCASHD_6_12_2_ACCEPTANCE): Outcome {
  let block;
  try {
    block = decodeBlock(input, acceptance);
  } catch (e) {
    return checkError(e, input);
  }
  const again = encodeBlock(
    block.header,
    block.transactions.map((t) => encodeTransaction(t.data)),
  );
  if (!sameBytes(again, input.subarray(0, block.size))) throw new Error('block re-encoding differs');
  if (block.computeMerkleRoot().length !== 32) throw new Error('bad merkle root');
  // getblock verbosity 2 through both writers (a side-branch context: no chain state to print).
  const ctx = { height: 1, confirmations: -1, chainWork: 1n, previousBlockHash: block.header.prevHash, nextBlockHash: null };
  const text = blockToJson(block, 2, ctx, MAINNET);
  if (blockToJsonBytes(block, 2, ctx, MAINNET).toString('utf8') !== text) throw new Error('block byte rendering differs from text');
  // zcashd prints a zero-mantissa nBits' difficulty as nothing (`"difficulty":,`), and so does
  // this rendering; everything else must parse.
  JSON.parse(text.replace('"difficulty":,', '"difficulty":null,'));
  return 'decoded';
}

/** Real transactions small enough to mutate quickly, covering every version present. */
export function fuzzCorpus(maxSize = 12_000): Uint8Array[] {
  return realTransactions()
    .map((t) => t.tx.bytes)
    .filter((b) => b.length <= maxSize)
    .map((b) => b.slice());
}

/** Today's chain's real transactions (v4, v5 and v6, nu6.3/) small enough to mutate quickly. */
export function currentChainFuzzCorpus(maxSize = 12_000): Uint8Array[] {
  return currentChainTransactions()
    .map((t) => t.tx.bytes)
    .filter((b) => b.length <= maxSize)
    .map((b) => b.slice());
}

/** Encodes n as a CompactSize in the given width (1, 3, 5 or 9 bytes), canonical or not. */
export function compactSizeBytes(n: bigint, width: 1 | 3 | 5 | 9): Uint8Array {
  const out = new Uint8Array(width);
  if (width === 1) {
    out[0] = Number(n & 0xffn);
    return out;
  }
  out[0] = width === 3 ? 0xfd : width === 5 ? 0xfe : 0xff;
  for (let i = 1; i < width; i++) out[i] = Number((n >> BigInt(8 * (i - 1))) & 0xffn);
  return out;
}

/** Mutation of a real transaction: truncation, bit flips, byte overwrite, splice of a CompactSize. */
export function mutatedTransaction(corpus: Uint8Array[]): fc.Arbitrary<Uint8Array> {
  const base = fc.integer({ min: 0, max: corpus.length - 1 }).map((i) => corpus[i]!);
  const truncated = base.chain((b) => fc.integer({ min: 0, max: b.length }).map((k) => b.subarray(0, k)));
  const flipped = base.chain((b) =>
    fc.array(fc.tuple(fc.integer({ min: 0, max: b.length * 8 - 1 })), { minLength: 1, maxLength: 8 }).map((bits) => {
      const out = b.slice();
      for (const [bit] of bits) out[bit >> 3]! ^= 1 << (bit & 7);
      return out;
    }),
  );
  const overwritten = base.chain((b) =>
    fc.tuple(fc.integer({ min: 0, max: b.length - 1 }), fc.uint8Array({ minLength: 1, maxLength: 40, size: 'max' })).map(([at, bytes]) => {
      const out = b.slice();
      out.set(bytes.subarray(0, out.length - at), at);
      return out;
    }),
  );
  const compactSize = base.chain((b) =>
    fc
      .tuple(
        fc.integer({ min: 0, max: b.length }),
        fc.integer({ min: 0, max: 3 }),
        fc.oneof(
          fc.bigInt({ min: 0n, max: 0x03000000n }),
          fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
          fc.constantFrom(0xfcn, 0xfdn, 0xffffn, 0x10000n, 0x2000000n, 0x2000001n, 1n << 32n),
        ),
        fc.constantFrom<1 | 3 | 5 | 9>(1, 3, 5, 9),
        fc.integer({ min: 0, max: 9 }),
      )
      .map(([at, _unused, n, width, drop]) => {
        // replace up to `drop` bytes at `at` with the CompactSize, shifting the rest
        const cs = compactSizeBytes(n, width);
        const cut = Math.min(at + drop, b.length);
        const out = new Uint8Array(at + cs.length + (b.length - cut));
        out.set(b.subarray(0, at));
        out.set(cs, at);
        out.set(b.subarray(cut), at + cs.length);
        return out;
      }),
  );
  return fc.oneof(truncated, flipped, overwritten, compactSize);
}

/**
 * A known header (all formats, plus junk, plus `extraHeaders`: today's chain's v6 headers)
 * followed by random bytes.
 */
export function randomTransactionBytes(extraHeaders: readonly Uint8Array[] = []): fc.Arbitrary<Uint8Array> {
  const known = [
    '01000000',
    '02000000',
    '00000000',
    '030000807082c403',
    '0400008085202f89',
    '050000800a27a726b4d0d6c2',
    'ffff0080ffffffff',
    '',
  ].map((h) => Uint8Array.from(Buffer.from(h, 'hex')));
  const headers = [...known, ...extraHeaders];
  return fc.tuple(fc.constantFrom(...headers), fc.uint8Array({ maxLength: 600, size: 'max' })).map(([h, body]) => {
    const out = new Uint8Array(h.length + body.length);
    out.set(h);
    out.set(body, h.length);
    return out;
  });
}
