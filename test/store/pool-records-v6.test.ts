// A store written by the schema-6 code, whose chain-state records have one fixed field per pool
// (test-vectors/store-v6), opens with today's code, answers every recorded reply byte for byte,
// and reorganizes back through the undo data it wrote, ending equal to a store today's code
// built from the same blocks. Its records (format 1) still decode; today's code writes the
// per-pool list (format 2), which decodes to the same values.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcMethod } from '../../src/rpc/method.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import {
  decodeBlockChainState,
  decodeChainStateTip,
  emptyTrees,
  encodeBlockChainState,
  encodeChainStateTip,
} from '../../src/state/chain-state.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import { chainStateKeys } from '../../src/store/indexes/chain-state-index.js';
import { checkStoreIntegrity, openChainStore, type ChainStore } from '../../src/store/index.js';
import { regtestGenesis, type BuiltBlock } from '../../test-vectors/regtest-builder.js';
import { SHIELDED_REGTEST, ShieldedChainBuilder } from '../../test-vectors/regtest-shielded.js';
import { callMethod } from '../support/call.js';
import { tempDir } from '../support/store.js';

const FIXTURE = join(import.meta.dirname, '..', '..', 'test-vectors', 'store-v6');
const CLOCK = { clock: () => 1752983473 };

interface RecordedReply {
  method: string;
  params: unknown[];
  outcome: { result: string } | { error: { code: number; message: string } };
}

const withoutSize = (s: string): string => s.replace(/"size_on_disk":\d+/, '');

async function replay(methods: Map<string, RpcMethod>, method: string, params: unknown[]): Promise<RecordedReply['outcome']> {
  const outcome = await callMethod(methods.get(method)!, JSON.stringify(params));
  return 'result' in outcome && method === 'getblockchaininfo' ? { result: withoutSize(outcome.result) } : outcome;
}

/** The chains the fixture was made from (test-vectors/store-v6/make.ts), and the base's continuation past the branch. */
function buildChains(): { base: BuiltBlock[]; branch: BuiltBlock[]; baseMore: BuiltBlock[] } {
  const genesis = regtestGenesis();
  const builder = new ShieldedChainBuilder(genesis);
  const baseShields: Record<number, number> = { 101: 2, 103: 1, 105: 3, 108: 2 };
  const base = [genesis, ...builder.chain(genesis, 112, 'base', (h) => baseShields[h] ?? 0)];
  const branchShields: Record<number, number> = { 104: 4, 110: 1 };
  const branch = builder.chain(base[102]!, 13, 'branch', (h) => branchShields[h] ?? 0);
  const baseMore = builder.chain(base[112]!, 6, 'base', (h) => (h === 116 ? 2 : 0));
  return { base, branch, baseMore };
}

describe('a store whose records have one field per pool (schema 6, test-vectors/store-v6)', () => {
  const oldDir = tempDir('store-v6');
  const newDir = tempDir('store-v6-fresh');
  let old: ChainStore;
  let chains: ReturnType<typeof buildChains>;

  beforeAll(async () => {
    cpSync(FIXTURE, oldDir.path, { recursive: true });
    old = await openChainStore({ datadir: join(oldDir.path, 'regtest'), network: SHIELDED_REGTEST });
    chains = buildChains();
  });
  afterAll(async () => {
    await old.close();
    oldDir.remove();
    newDir.remove();
  });

  it('holds format-1 records (the fixture is what the old code wrote)', async () => {
    const tip = old.database.getSync(chainStateKeys.tip())!;
    expect(tip[0]).toBe(1);
    const active = await old.hashAtHeight(115);
    expect(old.database.getSync(chainStateKeys.blockState(active!))![0]).toBe(1);
  });

  it('answers every recorded reply byte for byte', async () => {
    const recorded = JSON.parse(readFileSync(join(FIXTURE, 'replies.json'), 'utf8')) as RecordedReply[];
    expect(recorded.length).toBe(406);
    const methods = new Map(storeMethods(old, CLOCK).map((m) => [m.name, m]));
    for (const r of recorded)
      expect([r.method, r.params, await replay(methods, r.method, r.params)]).toEqual([r.method, r.params, r.outcome]);
    expect((await checkStoreIntegrity(old)).problems).toEqual([]);
  });

  it("reorganizes back to the base through the old undo data, ending like a store built by today's code", async () => {
    const { base, branch, baseMore } = chains;
    for (const b of baseMore.slice(0, -1)) await old.addBlock(b.bytes);
    expect((await old.addBlock(baseMore[baseMore.length - 1]!.bytes)).status).toMatch(/connected|reorganized/);
    expect((await old.tip())!.height).toBe(118);
    expect(Buffer.from((await old.tip())!.hash).equals(Buffer.from(baseMore[5]!.hash))).toBe(true);

    const fresh = await openChainStore({ datadir: newDir.path, network: SHIELDED_REGTEST });
    try {
      for (const b of [...base, ...branch, ...baseMore]) await fresh.addBlock(b.bytes);
      const a = new Map(storeMethods(old, CLOCK).map((m) => [m.name, m]));
      const b = new Map(storeMethods(fresh, CLOCK).map((m) => [m.name, m]));
      for (const blk of [...base.slice(95), ...branch, ...baseMore]) {
        for (const [method, params] of [
          ['getblock', [blk.hashHex, 1]],
          ['getblockheader', [blk.hashHex]],
          ['z_gettreestate', [blk.hashHex]],
        ] as const) {
          expect([method, blk.height, await replay(a, method, [...params])]).toEqual([
            method,
            blk.height,
            await replay(b, method, [...params]),
          ]);
        }
      }
      expect(await replay(a, 'getblockchaininfo', [])).toEqual(await replay(b, 'getblockchaininfo', []));
      // Decoded, the tip states are equal; as bytes the old store's is now format 2 as well.
      expect(Buffer.from(old.database.getSync(chainStateKeys.tip())!).equals(fresh.database.getSync(chainStateKeys.tip())!)).toBe(true);
      expect((await checkStoreIntegrity(old)).problems).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

describe('format-1 records with Orchard data (test-vectors/store-v6/records.json)', () => {
  const records = JSON.parse(readFileSync(join(FIXTURE, 'records.json'), 'utf8')) as {
    leaves: { sapling: number[]; orchard: number[] };
    blockState: string;
    blockStateBeforeNu5: string;
    tip: string;
  };
  const hashers = defaultPoolHashers();
  const leaf = (tag: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? tag : 0));
  const trees = emptyTrees(hashers);
  trees.sapling.appendMany(records.leaves.sapling.map(leaf));
  trees.orchard.appendMany(records.leaves.orchard.map(leaf));
  const hex = (b: Uint8Array | null): string | null => (b ? Buffer.from(b).toString('hex') : null);

  it('a block record decodes to its values, and re-encoded (format 2) decodes to the same', () => {
    const bytes = Buffer.from(records.blockState, 'hex');
    expect(bytes[0]).toBe(1);
    const s = decodeBlockChainState(bytes);
    expect([s.height, s.deltas, s.totals]).toEqual([
      7,
      { height: 7, transparent: -5n, sprout: 1n, sapling: 2n, orchard: 3n, lockbox: 0n, chainSupply: 1n },
      { chainSupply: 100n, transparent: 40n, sprout: 10n, sapling: 20n, orchard: 30n, lockbox: 0n },
    ]);
    expect([hex(s.saplingRoot), hex(s.orchardRoot), s.sproutSize, s.saplingSize, s.orchardSize]).toEqual([
      hex(trees.sapling.root()),
      hex(trees.orchard.root()),
      0,
      2,
      3,
    ]);
    expect([hex(s.chainHistoryRoot), hex(s.authDataRoot)]).toEqual(['09'.repeat(32), '08'.repeat(32)]);
    const again = encodeBlockChainState(s);
    expect(again[0]).toBe(2);
    expect(decodeBlockChainState(again)).toEqual(s);
  });

  it('a record before NU5 keeps its Orchard root null and its Orchard total unknown', () => {
    const s = decodeBlockChainState(Buffer.from(records.blockStateBeforeNu5, 'hex'));
    expect([s.orchardRoot, s.orchardSize, s.totals.orchard]).toEqual([null, 0, null]);
    expect(decodeBlockChainState(encodeBlockChainState(s))).toEqual(s);
  });

  it('a tip record decodes to its frontiers and totals, and round-trips through format 2', () => {
    const tip = decodeChainStateTip(Buffer.from(records.tip, 'hex'), hashers);
    expect([hex(tip.trees.sapling.root()), tip.trees.sapling.size]).toEqual([hex(trees.sapling.root()), 2]);
    expect([hex(tip.trees.orchard.root()), tip.trees.orchard.size]).toEqual([hex(trees.orchard.root()), 3]);
    expect([tip.height, tip.history, tip.coinsComplete, tip.totals.orchard]).toEqual([7, null, true, 30n]);
    const again = encodeChainStateTip(tip);
    expect(again[0]).toBe(2);
    const decoded = decodeChainStateTip(again, hashers);
    expect(hex(decoded.trees.orchard.root())).toBe(hex(trees.orchard.root()));
    expect(decoded.totals).toEqual(tip.totals);
    expect(Buffer.from(encodeChainStateTip(decoded)).equals(Buffer.from(again))).toBe(true);
  });

  it('a record of an unknown format or naming a pool this zecrpc does not know is refused by name', () => {
    const bytes = Buffer.from(records.blockState, 'hex');
    bytes[0] = 3;
    expect(() => decodeBlockChainState(bytes)).toThrow('corrupt block chain-state record (format 3; this zecrpc reads formats 1 and 2)');
    const list = Buffer.from(encodeBlockChainState(decodeBlockChainState(Buffer.from(records.blockState, 'hex'))));
    // The first pool entry's key byte follows the fixed part: format, height, 2 × 4 amounts (9 bytes each), 3 roots, the Sprout size, the count.
    const at = 1 + 4 + 8 * 9 + 3 * 32 + 8 + 1;
    expect(list[at]).toBe(1);
    list[at] = 0x7f;
    expect(() => decodeBlockChainState(list)).toThrow(
      'corrupt block chain-state record (pool key byte 127, which this zecrpc does not know)',
    );
  });
});
