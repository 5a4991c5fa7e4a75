// v6 digests where the chain cannot confirm them: the auth digest (the header commits to it only
// through the history root) and the v6 Sapling paths (no real v6 transaction has a Sapling part).
// A second reader and hasher, written here from the text of ZIP 229 (and ZIP 244, ZIP 225 for
// what v6 keeps), shares nothing with the product but BLAKE2b (from @noble/hashes). It must agree
// with both product paths (the WebAssembly walk and the field-by-field TypeScript) on generated
// v6 transactions whose transparent, Sapling, Orchard and Ironwood parts are real: Sapling spends
// and outputs from real v5 transactions in ../shared/test-vectors/blocks, Orchard and Ironwood
// actions from the real v6 transactions in nu6.3/. The generated transactions also re-encode byte
// for byte through the product. Finally, librustzcash's empty-v6 digest structure.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blake2b } from '@noble/hashes/blake2.js';
import { decodeTransaction, decodeTransactionFieldByField } from '../../src/codec/tx/transaction.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { zip229AuthDigestFromFields, zip229TxIdFromFields } from '../../src/codec/tx/zip229.js';
import { zip244AuthDigestFromFields } from '../../src/codec/tx/zip244.js';
import { wasmZip244Digests, zip244WasmAvailable } from '../../src/crypto/zip244-wasm.js';
import { readFacts, readHexVector, readJsonVector } from '../support/vectors.js';

// ---------------------------------------------------------------------------------------------
// The second reader: ZIP 225's v5 layout, and ZIP 229's v6 layout (v5's, then an Ironwood part).
// ---------------------------------------------------------------------------------------------

const NU6_3 = 0x37a5165b;
const NU6_2 = 0x5437f330;
const NU5 = 0xc2d6d0b4;
const V6_GROUP = 0xd884b698;

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const cat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const u32le = (v: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v >>> 0, true);
  return b;
};
const i64le = (v: number) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigInt64(0, BigInt(v), true);
  return b;
};
function compact(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >> 8);
  return cat(Uint8Array.of(0xfe), u32le(n));
}

class Cursor {
  pos = 0;
  constructor(readonly b: Uint8Array) {}
  take(n: number): Uint8Array {
    if (this.pos + n > this.b.length) throw new Error('short');
    const out = this.b.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  u32(): number {
    return new DataView(this.take(4).buffer).getUint32(0, true);
  }
  compact(): number {
    const first = this.take(1)[0]!;
    if (first < 0xfd) return first;
    if (first === 0xfd) return new DataView(this.take(2).buffer).getUint16(0, true);
    if (first === 0xfe) return this.u32();
    throw new Error('CompactSize too large for a test transaction');
  }
}

interface RawInput {
  prevout: Uint8Array; // 36
  script: Uint8Array; // without its length
  sequence: Uint8Array; // 4
}
interface RawOutput {
  value: Uint8Array; // 8
  script: Uint8Array;
}
interface RawSapling {
  spends: Uint8Array[]; // 96 each: cv, nullifier, rk
  outputs: Uint8Array[]; // 756 each: cv, cmu, epk, enc (580), out (80)
  valueBalance: Uint8Array; // 8
  anchor: Uint8Array | null;
  spendProofs: Uint8Array[];
  spendSigs: Uint8Array[];
  outputProofs: Uint8Array[];
  bindingSig: Uint8Array | null;
}
interface RawBundle {
  actions: Uint8Array[]; // 820 each: cv, nullifier, rk, cmx, epk, enc (580), out (80)
  flags: number;
  valueBalance: Uint8Array;
  anchor: Uint8Array;
  proof: Uint8Array;
  sigs: Uint8Array[];
  bindingSig: Uint8Array;
}
interface RawTx {
  version: number;
  groupId: number;
  branchId: number;
  lockTime: number;
  expiry: number;
  vin: RawInput[];
  vout: RawOutput[];
  sapling: RawSapling;
  orchard: RawBundle | null;
  ironwood: RawBundle | null;
}

function readBundle(c: Cursor): RawBundle | null {
  const n = c.compact();
  if (n === 0) return null;
  const actions = Array.from({ length: n }, () => c.take(820));
  const flags = c.take(1)[0]!;
  const valueBalance = c.take(8);
  const anchor = c.take(32);
  const proof = c.take(c.compact());
  const sigs = Array.from({ length: n }, () => c.take(64));
  return { actions, flags, valueBalance, anchor, proof, sigs, bindingSig: c.take(64) };
}

function readRaw(bytes: Uint8Array): RawTx {
  const c = new Cursor(bytes);
  const version = c.u32() & 0x7fffffff;
  const groupId = c.u32();
  const branchId = c.u32();
  const lockTime = c.u32();
  const expiry = c.u32();
  const vin = Array.from({ length: c.compact() }, () => ({ prevout: c.take(36), script: c.take(c.compact()), sequence: c.take(4) }));
  const vout = Array.from({ length: c.compact() }, () => ({ value: c.take(8), script: c.take(c.compact()) }));
  const nSpends = c.compact();
  const spends = Array.from({ length: nSpends }, () => c.take(96));
  const nOutputs = c.compact();
  const outputs = Array.from({ length: nOutputs }, () => c.take(756));
  const any = nSpends + nOutputs > 0;
  const valueBalance = any ? c.take(8) : new Uint8Array(8);
  const anchor = nSpends > 0 ? c.take(32) : null;
  const spendProofs = spends.map(() => c.take(192));
  const spendSigs = spends.map(() => c.take(64));
  const outputProofs = outputs.map(() => c.take(192));
  const bindingSig = any ? c.take(64) : null;
  const orchard = readBundle(c);
  const ironwood = version === 6 ? readBundle(c) : null;
  if (c.pos !== bytes.length) throw new Error('trailing bytes');
  const sapling = { spends, outputs, valueBalance, anchor, spendProofs, spendSigs, outputProofs, bindingSig };
  return { version, groupId, branchId, lockTime, expiry, vin, vout, sapling, orchard, ironwood };
}

function writeBundle(b: RawBundle | null): Uint8Array {
  if (!b) return compact(0);
  return cat(
    compact(b.actions.length),
    ...b.actions,
    Uint8Array.of(b.flags),
    b.valueBalance,
    b.anchor,
    compact(b.proof.length),
    b.proof,
    ...b.sigs,
    b.bindingSig,
  );
}

function writeRaw(t: RawTx): Uint8Array {
  const s = t.sapling;
  const any = s.spends.length + s.outputs.length > 0;
  return cat(
    u32le((0x80000000 | t.version) >>> 0),
    u32le(t.groupId),
    u32le(t.branchId),
    u32le(t.lockTime),
    u32le(t.expiry),
    compact(t.vin.length),
    ...t.vin.map((i) => cat(i.prevout, compact(i.script.length), i.script, i.sequence)),
    compact(t.vout.length),
    ...t.vout.map((o) => cat(o.value, compact(o.script.length), o.script)),
    compact(s.spends.length),
    ...s.spends,
    compact(s.outputs.length),
    ...s.outputs,
    any ? s.valueBalance : new Uint8Array(0),
    s.spends.length > 0 ? s.anchor! : new Uint8Array(0),
    ...s.spendProofs,
    ...s.spendSigs,
    ...s.outputProofs,
    any ? s.bindingSig! : new Uint8Array(0),
    writeBundle(t.orchard),
    t.version === 6 ? writeBundle(t.ironwood) : new Uint8Array(0),
  );
}

// ---------------------------------------------------------------------------------------------
// The second hasher: ZIP 229's digest tree (ZIP 244's, with its changes), node by node.
// ---------------------------------------------------------------------------------------------

const ascii = (s: string) => new TextEncoder().encode(s);
/** BLAKE2b-256 personalised with a 16-byte ASCII tag. */
const H = (tag: string, ...data: Uint8Array[]) => blake2b(cat(...data), { dkLen: 32, personalization: ascii(tag) });
/** The two roots' personalizations: 12 ASCII bytes and the consensus branch id. */
const R = (prefix: string, branchId: number, ...data: Uint8Array[]) =>
  blake2b(cat(...data), { dkLen: 32, personalization: cat(ascii(prefix), u32le(branchId)) });

function transparentDigest(t: RawTx): Uint8Array {
  if (t.vin.length === 0 && t.vout.length === 0) return H('ZTxIdTranspaHash');
  return H(
    'ZTxIdTranspaHash',
    H('ZTxIdPrevoutHash', ...t.vin.map((i) => i.prevout)),
    H('ZTxIdSequencHash', ...t.vin.map((i) => i.sequence)),
    H('ZTxIdOutputsHash', ...t.vout.map((o) => cat(o.value, compact(o.script.length), o.script))),
  );
}

function saplingDigestV6(s: RawSapling): Uint8Array {
  if (s.spends.length + s.outputs.length === 0) return H('ZTxIdSaplingHash');
  const spends =
    s.spends.length === 0
      ? H('ZTxIdSSpendsHash')
      : H(
          'ZTxIdSSpendsHash',
          H('ZTxIdSSpendCHash', ...s.spends.map((d) => d.subarray(32, 64))),
          // ZIP 229: sapling_spends_noncompact_digest_v6 omits the anchor.
          H('ZTxIdSSpendNH_v6', ...s.spends.map((d) => cat(d.subarray(0, 32), d.subarray(64, 96)))),
        );
  const outputs =
    s.outputs.length === 0
      ? H('ZTxIdSOutputHash')
      : H(
          'ZTxIdSOutputHash',
          H('ZTxIdSOutC__Hash', ...s.outputs.map((o) => o.subarray(32, 148))),
          H('ZTxIdSOutM__Hash', ...s.outputs.map((o) => o.subarray(148, 660))),
          H('ZTxIdSOutN__Hash', ...s.outputs.map((o) => cat(o.subarray(0, 32), o.subarray(660, 756)))),
        );
  return H('ZTxIdSaplingHash', spends, outputs, s.valueBalance);
}

interface Tags {
  top: string;
  c: string;
  m: string;
  n: string;
  auth: string;
}
const ORCHARD_V6: Tags = {
  top: 'ZTxIdOrchardH_v6',
  c: 'ZTxIdOrcActCHash',
  m: 'ZTxIdOrcActMHash',
  n: 'ZTxIdOrcActNHash',
  auth: 'ZTxAuthOrchaH_v6',
};
const IRONWOOD: Tags = {
  top: 'ZTxIdIronwd_H_v6',
  c: 'ZTxIdIrnActCH_v6',
  m: 'ZTxIdIrnActMH_v6',
  n: 'ZTxIdIrnActNH_v6',
  auth: 'ZTxAuthIrnwdH_v6',
};

function bundleDigest(b: RawBundle | null, tags: Tags): Uint8Array {
  if (!b) return H(tags.top);
  return H(
    tags.top,
    // compact: nullifier, cmx, epk, enc[0..52]
    H(tags.c, ...b.actions.map((a) => cat(a.subarray(32, 64), a.subarray(96, 212)))),
    // memos: enc[52..564]
    H(tags.m, ...b.actions.map((a) => a.subarray(212, 724))),
    // non-compact: cv, rk, enc[564..580], out
    H(tags.n, ...b.actions.map((a) => cat(a.subarray(0, 32), a.subarray(64, 96), a.subarray(724, 820)))),
    Uint8Array.of(b.flags),
    b.valueBalance,
    // no anchor in v6
  );
}

function bundleAuth(b: RawBundle | null, tags: Tags): Uint8Array {
  if (!b) return H(tags.auth);
  return H(tags.auth, b.proof, ...b.sigs, b.bindingSig, b.anchor);
}

function independentTxid(t: RawTx): Uint8Array {
  const header = H(
    'ZTxIdHeadersHash',
    u32le((0x80000000 | t.version) >>> 0),
    u32le(t.groupId),
    u32le(t.branchId),
    u32le(t.lockTime),
    u32le(t.expiry),
  );
  return R(
    'ZcashTxHash_',
    t.branchId,
    header,
    transparentDigest(t),
    saplingDigestV6(t.sapling),
    bundleDigest(t.orchard, ORCHARD_V6),
    bundleDigest(t.ironwood, IRONWOOD),
  );
}

function independentAuth(t: RawTx): Uint8Array {
  const s = t.sapling;
  const transparent = H('ZTxAuthTransHash', ...t.vin.map((i) => cat(compact(i.script.length), i.script)));
  const sapling =
    s.spends.length + s.outputs.length === 0
      ? H('ZTxAuthSapliH_v6')
      : H(
          'ZTxAuthSapliH_v6',
          ...s.spendProofs,
          ...s.spendSigs,
          ...s.outputProofs,
          s.bindingSig!,
          // anchorSapling iff there are spends
          s.spends.length > 0 ? s.anchor! : new Uint8Array(0),
        );
  return R('ZTxAuthHash_', t.branchId, transparent, sapling, bundleAuth(t.orchard, ORCHARD_V6), bundleAuth(t.ironwood, IRONWOOD));
}

// ---------------------------------------------------------------------------------------------
// Real parts.
// ---------------------------------------------------------------------------------------------

interface Nu63Facts {
  blocks: Record<string, { transactions: { size: number }[] }>;
}

/** The v5 and v6 transactions of a real block, split by their stated sizes and read by the second reader. */
function realTransactions(nu63: boolean, network: 'mainnet' | 'testnet', height: number): RawTx[] {
  const sizes = nu63
    ? readJsonVector<Nu63Facts>('nu6.3', 'facts.json').blocks[`${network}/${height}`]!.transactions.map((t) => t.size)
    : readFacts()
        .blocks.find((b) => b.network === network && b.height === height)!
        .transactions.map((t) => t.size);
  const block = nu63 ? readHexVector('nu6.3', 'blocks', network, `${height}.hex`) : readHexVector('blocks', network, `${height}.hex`);
  const c = new Cursor(block);
  c.take(140);
  c.take(c.compact());
  expect(c.compact()).toBe(sizes.length);
  const out: RawTx[] = [];
  let at = c.pos;
  for (const size of sizes) {
    const bytes = block.slice(at, at + size);
    if ((new DataView(bytes.buffer).getUint32(0, true) & 0x7fffffff) >= 5) out.push(readRaw(bytes));
    at += size;
  }
  expect(at).toBe(block.length);
  return out;
}

/** A Sapling spend with what the format lays out apart from it. */
interface RealSpend {
  description: Uint8Array;
  proof: Uint8Array;
  sig: Uint8Array;
  anchor: Uint8Array;
}
interface RealOutput {
  description: Uint8Array;
  proof: Uint8Array;
}
interface RealAction {
  action: Uint8Array;
  sig: Uint8Array;
  anchor: Uint8Array;
  bindingSig: Uint8Array;
  proof: Uint8Array;
}

// Real v5 transactions with Sapling spends and outputs (mainnet 1687107 and 1687108: up to 3
// spends, up to 2 outputs), the real v6 transactions with Orchard and Ironwood actions, and the
// real v5 and v6 transparent parts.
const saplingSources = [...realTransactions(false, 'mainnet', 1687107), ...realTransactions(false, 'mainnet', 1687108)];
const v6Sources = [3428144, 3428145, 3428146].flatMap((h) => realTransactions(true, 'mainnet', h));
const spends: RealSpend[] = saplingSources.flatMap((t) =>
  t.sapling.spends.map((d, i) => ({
    description: d,
    proof: t.sapling.spendProofs[i]!,
    sig: t.sapling.spendSigs[i]!,
    anchor: t.sapling.anchor!,
  })),
);
const outputs: RealOutput[] = saplingSources.flatMap((t) =>
  t.sapling.outputs.map((d, i) => ({ description: d, proof: t.sapling.outputProofs[i]! })),
);
const saplingBindingSigs = saplingSources.filter((t) => t.sapling.bindingSig).map((t) => t.sapling.bindingSig!);
const actionsOf = (b: RawBundle | null): RealAction[] =>
  b ? b.actions.map((a, i) => ({ action: a, sig: b.sigs[i]!, anchor: b.anchor, bindingSig: b.bindingSig, proof: b.proof })) : [];
const orchardActions = v6Sources.flatMap((t) => actionsOf(t.orchard));
const ironwoodActions = v6Sources.flatMap((t) => actionsOf(t.ironwood));
const inputs = [...saplingSources, ...v6Sources].flatMap((t) => t.vin);
const outputsT = [...saplingSources, ...v6Sources].flatMap((t) => t.vout);

it('the real parts are there to build from', () => {
  expect(spends.length).toBeGreaterThanOrEqual(3);
  expect(outputs.length).toBeGreaterThanOrEqual(3);
  expect(orchardActions.length).toBeGreaterThanOrEqual(4);
  expect(ironwoodActions.length).toBeGreaterThanOrEqual(4);
  expect(inputs.length).toBeGreaterThanOrEqual(3);
  expect(outputsT.length).toBeGreaterThanOrEqual(3);
});

const MAX_MONEY = 21_000_000 * 100_000_000;

/** A real proof's bytes, repeated to the canonical length for `n` actions (2720 + 2272·n). */
function proofFor(actions: RealAction[]): Uint8Array {
  const source = actions[0]!.proof;
  const out = new Uint8Array(2720 + 2272 * actions.length);
  for (let i = 0; i < out.length; i++) out[i] = source[i % source.length]!;
  return out;
}

const bundle = (pool: RealAction[]) =>
  fc
    .record({
      picks: fc.array(fc.nat({ max: pool.length - 1 }), { minLength: 0, maxLength: 3 }),
      flags: fc.integer({ min: 0, max: 7 }),
      valueBalance: fc.integer({ min: -MAX_MONEY, max: MAX_MONEY }),
    })
    .map(({ picks, flags, valueBalance }): RawBundle | null => {
      if (picks.length === 0) return null;
      const actions = picks.map((i) => pool[i]!);
      return {
        actions: actions.map((a) => a.action),
        flags,
        valueBalance: i64le(valueBalance),
        anchor: actions[0]!.anchor,
        proof: proofFor(actions),
        sigs: actions.map((a) => a.sig),
        bindingSig: actions[0]!.bindingSig,
      };
    });

const generatedV6 = fc
  .record({
    branchId: fc.constantFrom(NU6_3, NU6_2, NU5),
    lockTime: fc.nat({ max: 0xffffffff }),
    expiry: fc.nat({ max: 499_999_999 }),
    vin: fc.array(fc.nat({ max: inputs.length - 1 }), { maxLength: 3 }),
    vout: fc.array(fc.nat({ max: outputsT.length - 1 }), { maxLength: 3 }),
    spends: fc.array(fc.nat({ max: spends.length - 1 }), { maxLength: 3 }),
    outputs: fc.array(fc.nat({ max: outputs.length - 1 }), { maxLength: 3 }),
    saplingBalance: fc.integer({ min: -MAX_MONEY, max: MAX_MONEY }),
    saplingBinding: fc.nat({ max: saplingBindingSigs.length - 1 }),
    orchard: bundle(orchardActions),
    ironwood: bundle(ironwoodActions),
  })
  .map((g): RawTx => {
    const sp = g.spends.map((i) => spends[i]!);
    const out = g.outputs.map((i) => outputs[i]!);
    return {
      version: 6,
      groupId: V6_GROUP,
      branchId: g.branchId,
      lockTime: g.lockTime,
      expiry: g.expiry,
      vin: g.vin.map((i) => inputs[i]!),
      vout: g.vout.map((i) => outputsT[i]!),
      sapling: {
        spends: sp.map((s) => s.description),
        outputs: out.map((o) => o.description),
        valueBalance: i64le(sp.length + out.length > 0 ? g.saplingBalance : 0),
        anchor: sp.length > 0 ? sp[0]!.anchor : null,
        spendProofs: sp.map((s) => s.proof),
        spendSigs: sp.map((s) => s.sig),
        outputProofs: out.map((o) => o.proof),
        bindingSig: sp.length + out.length > 0 ? saplingBindingSigs[g.saplingBinding]! : null,
      },
      orchard: g.orchard,
      ironwood: g.ironwood,
    };
  });

describe('the second reader and hasher', () => {
  it('reads every real v6 transaction back to its bytes and gives its chain-confirmed txid', () => {
    const blocks = readJsonVector<{
      blocks: Record<string, { network: string; height: number; transactions: { txid: string; version: number }[] }>;
    }>('nu6.3', 'facts.json').blocks;
    let checked = 0;
    for (const b of Object.values(blocks)) {
      const txs = realTransactions(true, b.network as 'mainnet' | 'testnet', b.height).filter((t) => t.version === 6);
      const facts = b.transactions.filter((t) => t.version === 6);
      expect(txs.length).toBe(facts.length);
      txs.forEach((t, i) => {
        expect(hex(independentTxid(t).slice().reverse()), `${b.network} ${b.height}`).toBe(facts[i]!.txid);
        checked++;
      });
    }
    expect(checked).toBe(23);
  });
});

describe('generated v6 transactions built from real parts', () => {
  it('the WebAssembly path is in use', () => {
    expect(zip244WasmAvailable()).toBe(true);
  });

  it('the product decodes and re-encodes them, and its two digest paths agree with the second hasher', () => {
    let withSaplingSpends = 0;
    let withSaplingOutputsOnly = 0;
    let withBoth = 0;
    fc.assert(
      fc.property(generatedV6, (raw) => {
        const bytes = writeRaw(raw);
        expect(hex(writeRaw(readRaw(bytes)))).toBe(hex(bytes));
        const tx = decodeTransaction(bytes, CURRENT_CHAIN_ACCEPTANCE);
        expect(tx.size).toBe(bytes.length);
        expect(hex(tx.serialize())).toBe(hex(bytes));
        expect(hex(decodeTransactionFieldByField(bytes, CURRENT_CHAIN_ACCEPTANCE).serialize())).toBe(hex(bytes));
        const txid = hex(independentTxid(raw));
        const auth = hex(independentAuth(raw));
        const wasm = wasmZip244Digests(bytes);
        expect(wasm, 'the WebAssembly walk accepts a v6 transaction').not.toBeNull();
        expect(hex(wasm!.txid)).toBe(txid);
        expect(hex(wasm!.authDigest)).toBe(auth);
        expect(hex(zip229TxIdFromFields(tx.data))).toBe(txid);
        expect(hex(zip229AuthDigestFromFields(tx.data))).toBe(auth);
        expect(hex(tx.txid)).toBe(txid);
        expect(hex(tx.authDigest)).toBe(auth);
        if (raw.sapling.spends.length > 0) withSaplingSpends++;
        else if (raw.sapling.outputs.length > 0) withSaplingOutputsOnly++;
        if (raw.orchard && raw.ironwood) withBoth++;
      }),
      { seed: 0x229, numRuns: 300 },
    );
    // The v6 Sapling paths real data never reaches were exercised, with and without the anchor.
    expect(withSaplingSpends).toBeGreaterThan(20);
    expect(withSaplingOutputsOnly).toBeGreaterThan(5);
    expect(withBoth).toBeGreaterThan(20);
  });

  it('moving an anchor changes the auth digest and never the txid (ZIP 229: anchors are authorizing data)', () => {
    fc.assert(
      fc.property(generatedV6, fc.constantFrom('sapling', 'orchard', 'ironwood'), (raw, part) => {
        const other = orchardActions.find((a) => hex(a.anchor) !== hex(raw.orchard?.anchor ?? new Uint8Array(32)))!.anchor;
        const moved: RawTx = structuredClone(raw);
        if (part === 'sapling') {
          if (moved.sapling.spends.length === 0) return;
          const alternative = spends.find((s) => hex(s.anchor) !== hex(raw.sapling.anchor!));
          if (!alternative) return;
          moved.sapling.anchor = alternative.anchor;
        } else {
          const b = moved[part];
          if (!b) return;
          b.anchor = part === 'orchard' ? other : orchardActions.find((a) => hex(a.anchor) !== hex(b.anchor))!.anchor;
        }
        const before = decodeTransaction(writeRaw(raw), CURRENT_CHAIN_ACCEPTANCE);
        const after = decodeTransaction(writeRaw(moved), CURRENT_CHAIN_ACCEPTANCE);
        expect(hex(after.txid)).toBe(hex(before.txid));
        expect(hex(after.authDigest)).not.toBe(hex(before.authDigest));
        expect(hex(after.authDigest)).toBe(hex(independentAuth(moved)));
      }),
      { seed: 0x2290, numRuns: 120 },
    );
  });
});

describe("librustzcash's empty-v6 digest structure (zcash_primitives transaction tests)", () => {
  /** A v6 transaction with nothing in it: header, branch id, lock time, expiry, then six zero counts. */
  const empty = (version: 5 | 6, group: number, branchId: number) =>
    cat(u32le((0x80000000 | version) >>> 0), u32le(group), u32le(branchId), u32le(0), u32le(0), new Uint8Array(version === 6 ? 6 : 5));

  it('the auth commitment of an empty v6 transaction hashes the v6 Sapling and Orchard, and the Ironwood, empty digests', () => {
    const tx = decodeTransaction(empty(6, V6_GROUP, NU6_3), CURRENT_CHAIN_ACCEPTANCE);
    const expected = R('ZTxAuthHash_', NU6_3, H('ZTxAuthTransHash'), H('ZTxAuthSapliH_v6'), H('ZTxAuthOrchaH_v6'), H('ZTxAuthIrnwdH_v6'));
    expect(hex(tx.authDigest)).toBe(hex(expected));
    expect(hex(zip229AuthDigestFromFields(tx.data))).toBe(hex(expected));
  });

  it('the txid of an empty v6 transaction hashes the v6 Orchard and the Ironwood empty digests', () => {
    const bytes = empty(6, V6_GROUP, NU6_3);
    const tx = decodeTransaction(bytes, CURRENT_CHAIN_ACCEPTANCE);
    const header = H('ZTxIdHeadersHash', bytes.subarray(0, 20));
    const expected = R(
      'ZcashTxHash_',
      NU6_3,
      header,
      H('ZTxIdTranspaHash'),
      H('ZTxIdSaplingHash'),
      H('ZTxIdOrchardH_v6'),
      H('ZTxIdIronwd_H_v6'),
    );
    expect(hex(tx.txid)).toBe(hex(expected));
    expect(hex(zip229TxIdFromFields(tx.data))).toBe(hex(expected));
  });

  it('a v5 transaction under the NU6.3 branch id keeps ZIP 244: three auth children, v5 personalizations', () => {
    const tx = decodeTransaction(empty(5, 0x26a7270a, NU6_3), CURRENT_CHAIN_ACCEPTANCE);
    const expected = R('ZTxAuthHash_', NU6_3, H('ZTxAuthTransHash'), H('ZTxAuthSapliHash'), H('ZTxAuthOrchaHash'));
    expect(hex(tx.authDigest)).toBe(hex(expected));
    expect(hex(zip244AuthDigestFromFields(tx.data))).toBe(hex(expected));
  });
});
