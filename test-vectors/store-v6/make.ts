/**
 * Writes `test-vectors/store-v6/`: a chain store made by the schema-6 code, whose chain-state
 * records carry one fixed field per shielded pool, and what that code answered from it. Run it
 * from a checkout of that code (commit 153a30e), not from today's:
 *
 *   npx tsx test-vectors/store-v6/make.ts
 *
 * The chain is the one test/store/shielded-reorg.test.ts builds (SHIELDED_REGTEST): the base
 * branch 0..112, then the branch from 102 to 115, which takes over; so the store holds records of
 * connected, disconnected and active blocks, anchors, nullifier-free Sapling trees and the undo
 * data a later reorganization back reads. `replies.json` holds the replies read from the store;
 * `records.json` holds records the same code encodes for a state with Orchard leaves, which that
 * chain cannot reach.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { encodeBlockChainState, encodeChainStateTip, emptyTrees, type BlockChainState } from '../../src/state/chain-state.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import { openChainStore } from '../../src/store/index.js';
import { regtestGenesis } from '../regtest-builder.js';
import { SHIELDED_REGTEST, ShieldedChainBuilder } from '../regtest-shielded.js';
import { callMethod } from '../../test/support/call.js';

const here = import.meta.dirname;
const CLOCK = 1752983473;

const genesis = regtestGenesis();
const builder = new ShieldedChainBuilder(genesis);
const baseShields: Record<number, number> = { 101: 2, 103: 1, 105: 3, 108: 2 };
const base = [genesis, ...builder.chain(genesis, 112, 'base', (h) => baseShields[h] ?? 0)];
const branchShields: Record<number, number> = { 104: 4, 110: 1 };
const branch = builder.chain(base[102]!, 13, 'branch', (h) => branchShields[h] ?? 0);

const work = mkdtempSync(join(tmpdir(), 'zecrpc-store-v6-'));
const store = await openChainStore({ datadir: work, network: SHIELDED_REGTEST });
for (const b of base) await store.addBlock(b.bytes);
for (const b of branch) await store.addBlock(b.bytes);

const methods = new Map(storeMethods(store, { clock: () => CLOCK }).map((m) => [m.name, m]));
const replies: { method: string; params: unknown[]; outcome: unknown }[] = [];
const record = async (method: string, params: unknown[]): Promise<void> => {
  const outcome = await callMethod(methods.get(method)!, JSON.stringify(params));
  if ('result' in outcome && method === 'getblockchaininfo') outcome.result = outcome.result.replace(/"size_on_disk":\d+/, '');
  replies.push({ method, params, outcome });
};
for (const b of [...base, ...branch]) {
  await record('getblock', [b.hashHex, 1]);
  // Verbosity 2 repeats verbosity 1's chain state; the shielding blocks' transactions are kept.
  if (b.height > 100) await record('getblock', [b.hashHex, 2]);
  await record('getblockheader', [b.hashHex]);
  await record('z_gettreestate', [b.hashHex]);
}
await record('getblockchaininfo', []);
await record('z_getsubtreesbyindex', ['sapling', 0]);
await record('z_getsubtreesbyindex', ['orchard', 0]);
await store.close();

// Copy the index (not LOCK or the logs) and the block files.
const dest = join(here, 'regtest', 'zecrpc');
rmSync(join(here, 'regtest'), { recursive: true, force: true });
const src = join(work, 'zecrpc');
for (const dir of readdirSync(src, { withFileTypes: true })) {
  if (!dir.isDirectory()) continue;
  mkdirSync(join(dest, dir.name), { recursive: true });
  for (const f of readdirSync(join(src, dir.name))) {
    if (dir.name === 'index' && !/(\.ldb|\.log|^CURRENT|^MANIFEST-.*)$/.test(f)) continue;
    if (f === 'LOCK' || f === 'LOG' || f === 'LOG.old') continue;
    cpSync(join(src, dir.name, f), join(dest, dir.name, f));
  }
}
for (const f of readdirSync(src, { withFileTypes: true })) if (f.isFile()) cpSync(join(src, f.name), join(dest, f.name));
rmSync(work, { recursive: true, force: true });
writeFileSync(join(here, 'replies.json'), JSON.stringify(replies, null, 1) + '\n');

// Records with Orchard data, encoded by this code.
const hashers = defaultPoolHashers();
const trees = emptyTrees(hashers);
const leaf = (tag: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? tag : 0));
trees.sapling.appendMany([leaf(3), leaf(4)]);
trees.orchard.appendMany([leaf(5), leaf(6), leaf(7)]);
const totals = { chainSupply: 100n, transparent: 40n, sprout: 10n, sapling: 20n, orchard: 30n, lockbox: 0n };
const state: BlockChainState = {
  height: 7,
  deltas: { height: 7, transparent: -5n, sprout: 1n, sapling: 2n, orchard: 3n, lockbox: 0n, chainSupply: 1n },
  totals,
  sproutRoot: trees.sprout.root(),
  saplingRoot: trees.sapling.root(),
  orchardRoot: trees.orchard.root(),
  chainHistoryRoot: new Uint8Array(32).fill(9),
  authDataRoot: new Uint8Array(32).fill(8),
  sproutSize: 0,
  saplingSize: 2,
  orchardSize: 3,
};
const tip = { hash: new Uint8Array(32).fill(1), height: 7, trees, history: null, totals, coinsComplete: true };
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
writeFileSync(
  join(here, 'records.json'),
  JSON.stringify(
    {
      leaves: { sapling: [3, 4], orchard: [5, 6, 7] },
      blockState: hex(encodeBlockChainState(state)),
      blockStateBeforeNu5: hex(
        encodeBlockChainState({ ...state, orchardRoot: null, orchardSize: 0, totals: { ...totals, orchard: null } }),
      ),
      tip: hex(encodeChainStateTip(tip)),
    },
    null,
    1,
  ) + '\n',
);
console.log(`${replies.length} replies; store at ${dest}`);
