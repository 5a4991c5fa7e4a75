/**
 * How the uncached render floor (render-floor-server.ts) builds each reply: per recorded request,
 * a function writing the whole reply into given memory while doing the work no server answering
 * without a reply cache can leave out, through `FloorWork` (the fastest code this checkout has
 * for each part; tests pass counting stand-ins).
 */
import { createHash } from 'node:crypto';
import { MAINNET, TESTNET } from '../../src/chain/network.js';
import { bytesEqual } from '../../src/codec/hex.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { isPayToPubkeyHash, isPayToScriptHash, solveScript } from '../../src/codec/script/solver.js';
import { decodeTransaction } from '../../src/codec/tx/transaction.js';
import { ADDRESS_PAYLOAD_BYTES, ADDRESS_TEXT_AT, ADDRESS_TEXT_RECORD, addressTexts } from '../../src/crypto/address-checksums.js';
import { isCanonicalJubjubPoint, isJubjubSmallOrder, isValidPallasPoint } from '../../src/crypto/curves.js';
import { wasmZip244Digests } from '../../src/crypto/zip244-wasm.js';
import { wasmHexDecodeInto, wasmHexInto } from '../../src/json/hex-wasm.js';
import type { RecordedReply } from './recorded-replies.js';

export interface FloorWork {
  /** The hex text's bytes into `out`: true when it is hex. */
  hexDecodeInto(hex: Uint8Array, out: Uint8Array): boolean | null;
  /** A v1–v4 txid. */
  sha256d(bytes: Uint8Array): Uint8Array;
  /** A v5 or v6 transaction's txid and auth digest (ZIP 244, ZIP 229). */
  zip244Digests(wire: Uint8Array): { txid: Uint8Array; authDigest: Uint8Array } | null;
  /** The lowercase hex of bytes[start, end) into out at `at`. */
  hexInto(bytes: Uint8Array, start: number, end: number, out: Uint8Array, at: number): boolean;
  /** Whether the 32 bytes are a point of `kind` as the decoder requires it (zcashd refuses the transaction otherwise). */
  pointCheck(kind: PointKind, point: Uint8Array): boolean;
  /**
   * The Base58Check texts of `count` t-address payloads (22 bytes apart), as addressTexts lays
   * them out, valid until the next call; null when the module cannot write them.
   */
  addressTexts(payloads: Uint8Array, count: number): Uint8Array | null;
}

/** The curve points a transaction's decoding checks: Orchard's and Ironwood's cv and rk, Sapling's cv (not of small order) and rk. */
export type PointKind = 'pallas' | 'jubjub-cv' | 'jubjub-rk';

export const FLOOR_WORK: FloorWork = {
  hexDecodeInto: wasmHexDecodeInto,
  sha256d: (bytes) => createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest(),
  zip244Digests: wasmZip244Digests,
  hexInto: wasmHexInto,
  // The checks the decoder makes, through the backend it selects (WebAssembly when it loads);
  // render-floor-server.ts turns the verdict memo off, so each runs as for a point never seen.
  pointCheck: (kind, point) =>
    kind === 'pallas' ? isValidPallasPoint(point) : isCanonicalJubjubPoint(point) && (kind === 'jubjub-rk' || !isJubjubSmallOrder(point)),
  // The batch the address table encodes a transaction's fresh addresses with (WebAssembly: four
  // checksums at a time, then Base58): a server that remembers no address computes each anew.
  addressTexts,
};

/**
 * Where the points a decoding checks lie in `tx`: a transaction decoded from other bytes (a
 * distinct copy) checks the same places. Each is a view into `tx` (the decoder copies none).
 */
export function pointPlaces(tx: Uint8Array): { kind: PointKind; at: number }[] {
  const d = decodeTransaction(tx, CURRENT_CHAIN_ACCEPTANCE).data;
  const places: { kind: PointKind; at: number }[] = [];
  const place = (kind: PointKind, view: Uint8Array): void => {
    const at = view.byteOffset - tx.byteOffset;
    if (view.buffer !== tx.buffer || at < 0 || at + 32 > tx.length) throw new Error('a point is not a view into the transaction');
    places.push({ kind, at });
  };
  for (const bundle of [d.orchard, d.ironwood ?? null]) {
    for (const a of bundle?.actions ?? []) {
      place('pallas', a.cv);
      place('pallas', a.rk);
    }
  }
  for (const spend of d.sapling?.spends ?? []) {
    place('jubjub-cv', spend.cv);
    place('jubjub-rk', spend.rk);
  }
  for (const output of d.sapling?.outputs ?? []) place('jubjub-cv', output.cv);
  return places;
}

/** Addresses a batch of addressTexts holds at most (its module's capacity). */
const TEXT_BATCH = 1024;

/**
 * The t-addresses a reply shows (its P2PKH and P2SH outputs' `addresses`): where each one's
 * 20-byte hash lies in the transaction and the prefix of the network whose texts the reply shows.
 * `texts(tx)` computes them all from `tx`'s bytes (a distinct copy holds its hashes at the same
 * places) into reused memory. Checked once: every text computed from `tx` must be in the reply.
 */
export function addressPlan(tx: Uint8Array, reply: RecordedReply, work: FloorWork): { count: number; texts(tx: Uint8Array): void } {
  const places: { at: number; p2sh: boolean }[] = [];
  for (const o of decodeTransaction(tx, CURRENT_CHAIN_ACCEPTANCE).data.vout) {
    const script = o.scriptPubKey;
    const at = script.byteOffset - tx.byteOffset;
    if (script.buffer !== tx.buffer || at < 0 || at + script.length > tx.length)
      throw new Error('a script is not a view into the transaction');
    if (isPayToPubkeyHash(script)) places.push({ at: at + 3, p2sh: false });
    else if (isPayToScriptHash(script)) places.push({ at: at + 2, p2sh: true });
    // The reply shows these outputs' addresses too, each a HASH160 of a key first: work the
    // floor does not do, so it refuses them rather than do less than a server must.
    else {
      const { type } = solveScript(script);
      if (type === 'pubkey' || type === 'multisig')
        throw new Error(`the floor computes P2PKH and P2SH addresses only, not a ${type} output's`);
    }
  }
  const payloads = new Uint8Array(ADDRESS_PAYLOAD_BYTES * places.length);
  const hashAt = Int32Array.from(places, (p) => p.at);
  const prefixes = (network: typeof MAINNET): void => {
    places.forEach((p, i) => payloads.set(p.p2sh ? network.p2shPrefix : network.p2pkhPrefix, ADDRESS_PAYLOAD_BYTES * i));
  };
  // Each request's hashes, byte by byte: no view allocated an address.
  const hashes = (from: Uint8Array): void => {
    for (let i = 0, o = 2; i < hashAt.length; i++, o += ADDRESS_PAYLOAD_BYTES) {
      const at = hashAt[i]!;
      for (let j = 0; j < 20; j++) payloads[o + j] = from[at + j]!;
    }
  };
  /** Every payload's text, batch by batch; `check`, when given, sees each batch's and may stop them (false). */
  const computeTexts = (check?: (texts: Uint8Array, n: number) => boolean): boolean => {
    for (let done = 0; done < places.length; done += TEXT_BATCH) {
      const n = Math.min(TEXT_BATCH, places.length - done);
      const texts = work.addressTexts(payloads.subarray(ADDRESS_PAYLOAD_BYTES * done), n);
      if (!texts) throw new Error('the WebAssembly address texts are unavailable');
      if (check && !check(texts, n)) return false;
    }
    return true;
  };
  const shownIn = (texts: Uint8Array, n: number): boolean => {
    for (let i = 0; i < n; i++) {
      const r = ADDRESS_TEXT_RECORD * i;
      const text = Buffer.from(texts.subarray(r + ADDRESS_TEXT_AT, r + ADDRESS_TEXT_AT + texts[r]!)).toString('latin1');
      if (reply.body.indexOf(`"${text}"`) < 0) return false;
    }
    return true;
  };
  const shown = (network: typeof MAINNET): boolean => {
    prefixes(network);
    hashes(tx);
    return computeTexts(shownIn);
  };
  const network = places.length === 0 ? MAINNET : [MAINNET, TESTNET].find(shown);
  if (!network) throw new Error('the reply does not show the addresses computed from the transaction');
  prefixes(network);
  return {
    count: places.length,
    texts: (from) => {
      hashes(from);
      computeTexts();
    },
  };
}

/** A transaction's txid and, for v5 and v6, its auth digest: SHA-256d (OpenSSL) or ZIP 244's (WebAssembly, one walk for both). */
function digestsOf(tx: Uint8Array, work: FloorWork): { txid: Uint8Array; authDigest: Uint8Array | null } {
  // The version word without its overwinter bit (bit 31), little-endian.
  const version = tx[0]! | (tx[1]! << 8) | (tx[2]! << 16) | ((tx[3]! & 0x7f) << 24);
  if (version <= 4) return { txid: work.sha256d(tx), authDigest: null };
  const d = work.zip244Digests(tx);
  if (!d) throw new Error('the ZIP 244 digests are unavailable');
  return d;
}

/** Checks once that the digests hashed from `tx` are the ones the reply shows. */
function checkShownDigests(reply: RecordedReply, computed: { txid: Uint8Array; authDigest: Uint8Array | null }): void {
  if (!shownHash(reply, 'txid').equals(computed.txid)) throw new Error('the hashed txid is not the reply’s');
  if (computed.authDigest && !shownHash(reply, 'authdigest').equals(computed.authDigest))
    throw new Error('the hashed auth digest is not the reply’s');
}

/** Writes the whole reply to the request whose body is `body` into `out` (the reply's size). */
export type BuildReply = (body: Buffer, out: Buffer) => void;

const DECODE_PARAM = Buffer.from('"method":"decoderawtransaction","params":["');
const GETRAW = Buffer.from('"method":"getrawtransaction"');

/** The byte range of the first string value after `marker` in `bytes`, or null. */
function stringAfter(bytes: Buffer, marker: string | Buffer): { start: number; end: number } | null {
  const at = bytes.indexOf(marker);
  if (at < 0) return null;
  const start = at + Buffer.byteLength(marker);
  const end = bytes.indexOf(0x22, start);
  return end < 0 ? null : { start, end };
}

/** A hash the reply shows as `key` (reversed hex, as zcashd prints a uint256). */
function shownHash(reply: RecordedReply, key: string): Buffer {
  const r = stringAfter(reply.body, `"${key}":"`);
  if (!r) throw new Error(`the reply shows no ${key}`);
  return Buffer.from(reply.body.toString('latin1', r.start, r.end), 'hex').reverse();
}

/**
 * decoderawtransaction: the parameter's hex decoded, its curve points checked as the decoder
 * checks them, the txid hashed (and a v5/v6 auth digest), the addresses' texts computed, the
 * reply's bytes copied; checked once against the reply's own txid, auth digest and addresses.
 */
function decodePlan(request: Buffer, reply: RecordedReply, work: FloorWork): BuildReply | null {
  const param = stringAfter(request, DECODE_PARAM);
  if (!param) return null;
  const tx = Buffer.allocUnsafeSlow((param.end - param.start) >>> 1);
  const decode = (body: Buffer): void => {
    if (work.hexDecodeInto(body.subarray(param.start, param.end), tx) !== true) throw new Error('the hex parameter did not decode');
  };
  decode(request);
  const points = pointPlaces(tx);
  const checkPoints = (): void => {
    for (const { kind, at } of points) if (!work.pointCheck(kind, tx.subarray(at, at + 32))) throw new Error(`an invalid ${kind} point`);
  };
  checkPoints();
  checkShownDigests(reply, digestsOf(tx, work));
  const addresses = addressPlan(tx, reply, work);
  return (body, out) => {
    decode(body);
    checkPoints();
    digestsOf(tx, work);
    addresses.texts(tx);
    reply.body.copy(out);
  };
}

/**
 * getrawtransaction 1: the transaction's bytes (held in memory: a store read costs nothing here)
 * hashed to check that they are the transaction asked for, its addresses' texts computed, its
 * bytes encoded as the reply's `hex`, the rest copied. The check cannot be left out: block files
 * carry no checksum of their own (src/store/block-data.ts; a read checks the header's hash and
 * the size only), so only the txid shows that the bytes read are that transaction, and zcashd
 * makes the same check ("txid mismatch").
 */
function getrawPlan(request: Buffer, reply: RecordedReply, work: FloorWork): BuildReply | null {
  if (request.indexOf(GETRAW) < 0) return null;
  const hex = stringAfter(reply.body, '"hex":"');
  if (!hex) return null;
  const tx = Buffer.from(reply.body.toString('latin1', hex.start, hex.end), 'hex');
  const computed = digestsOf(tx, work);
  checkShownDigests(reply, computed);
  const addresses = addressPlan(tx, reply, work);
  return (_body, out) => {
    if (!bytesEqual(digestsOf(tx, work).txid, computed.txid)) throw new Error('the transaction read is not the one asked for');
    addresses.texts(tx);
    reply.body.copy(out, 0, 0, hex.start);
    if (!work.hexInto(tx, 0, tx.length, out, hex.start)) throw new Error('the WebAssembly hex encoder is unavailable');
    reply.body.copy(out, hex.end, hex.end);
  };
}

/**
 * The floor's way to build the reply to `request`, or null for a method it replays (getblock);
 * throws when the reply it builds is not `reply` byte for byte.
 */
export function floorPlan(request: Buffer, reply: RecordedReply, work: FloorWork = FLOOR_WORK): BuildReply | null {
  const build = decodePlan(request, reply, work) ?? getrawPlan(request, reply, work);
  if (build) {
    const out = Buffer.alloc(reply.body.length);
    build(request, out);
    if (!out.equals(reply.body)) throw new Error(`the reply built for ${request.toString('latin1', 0, 80)}… is not the recorded one`);
  }
  return build;
}

/** Reply memory by size, each buffer reused once given back (once its reply is written out). */
export class ReplyMemory {
  private readonly spare = new Map<number, Buffer[]>();

  take(size: number): Buffer {
    return this.spare.get(size)?.pop() ?? Buffer.allocUnsafeSlow(size);
  }

  giveBack(b: Buffer): void {
    const list = this.spare.get(b.length);
    if (list) list.push(b);
    else this.spare.set(b.length, [b]);
  }
}
