/**
 * `z_gettreestate "hash|height"` (zcashd v6.12.2 src/rpc/blockchain.cpp). Each pool shows the
 * block's final root and, when the active chain's coins view holds a tree for that root, its
 * frontier (`finalState`, in zcashd's serialization: trimmed parents for Sprout and Sapling,
 * the padded legacy layout for Orchard); otherwise `skipHash` names the nearest ancestor whose
 * root it holds. The empty tree's root always has a tree (as CCoinsViewCache answers).
 * Deliberate option: `-legacyorchardroot` prints the Orchard finalRoot reversed (v4.5.0–v5.2.0).
 */
import { int32LE } from '../../../codec/bytes.js';
import { toHex, toHexReversed } from '../../../codec/hex.js';
import { getStr, JsonWriter } from '../../../json/index.js';
import { recordPoolRoot, treeAtAnchor, type ShieldedPool } from '../../../state/chain-state.js';
import { defaultPoolHashers } from '../../../state/hashers.js';
import { type IncrementalMerkleTree } from '../../../state/trees/incremental.js';
import { poolListedAt, SHIELDED_POOL_ENTRIES, shieldedPool } from '../../../state/pools.js';
import { POOL_TREE_STATE_LAYOUT } from '../../../state/trees/tree-state.js';
import type { BlockIndexEntry, ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc, helpLines as lines } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { HASH_HEX_LENGTH, parseHeightString, stringByteLength, uint256FromHexLenient } from '../../params.js';
import { activeHashAt, requireBlockIndex, tipHeight } from './context.js';

export const Z_GETTREESTATE_HELP: string =
  lines(
    'z_gettreestate "hash|height"',
    "Return information about the given block's tree state.",
    '',
    'Arguments:',
    '1. "hash|height"          (string, required) The block hash or height. Height can be negative where -1 is the last known valid block',
    '',
    'Result:',
    '{',
    '  "hash": "hash",         (string) hex block hash',
    '  "height": n,              (numeric) block height',
    '  "time": n,                (numeric) block time: UTC seconds since the Unix 1970-01-01 epoch',
    '  "sprout": {',
    '    "skipHash": "hash",   (string) hash of most recent block with more information',
    '    "commitments": {',
    '      "finalRoot": "hex", (string)',
    '      "finalState": "hex" (string)',
    '    }',
    '  },',
    '  "sapling": {',
    '    "skipHash": "hash",   (string) hash of most recent block with more information',
    '    "commitments": {',
    '      "finalRoot": "hex", (string)',
    '                          NB: The serialized representation of this field returned by this method',
    '                              was byte-flipped relative to its representation in the `getrawtransaction`',
    '                              output in prior releases up to and including v5.2.0. This has now been',
    '                              rectified.',
    '      "finalState": "hex" (string)',
    '    }',
    '  },',
    '  "orchard": {',
    '    "skipHash": "hash",   (string) hash of most recent block with more information',
    '    "commitments": {',
    '      "finalRoot": "hex", (string)',
    '      "finalState": "hex" (string)',
    '    }',
    '  }',
    '}',
    '',
    'Examples:',
  ) +
  exampleCli('z_gettreestate', '"00000000febc373a1da2bd9f887b105ad79ddc26ac26c2b28652d64e5207c5b5"') +
  exampleRpc('z_gettreestate', '"00000000febc373a1da2bd9f887b105ad79ddc26ac26c2b28652d64e5207c5b5"') +
  exampleCli('z_gettreestate', '12800') +
  exampleRpc('z_gettreestate', '12800');

const ZERO32 = new Uint8Array(32);

/** The root a block's index entry holds for a pool (zero where ConnectBlock never set one). */
async function finalRoot(store: ChainStoreReader, entry: BlockIndexEntry, pool: ShieldedPool): Promise<Uint8Array> {
  const record = await store.blockState(entry.hash);
  if (!record) return ZERO32;
  if (pool === 'sprout') return record.sproutRoot;
  return recordPoolRoot(record, pool) ?? ZERO32;
}

/** GetSproutAnchorAt / GetSaplingAnchorAt / GetOrchardAnchorAt: the tree at `root`, or null. */
async function treeAt(store: ChainStoreReader, pool: ShieldedPool, root: Uint8Array): Promise<IncrementalMerkleTree | null> {
  return treeAtAnchor(defaultPoolHashers()[pool], root, await store.treeStateAt(pool, root), pool);
}

export function zGetTreeStateMethod(store: ChainStoreReader, options: { legacyOrchardRoot?: boolean } = {}): RpcMethod {
  return {
    name: 'z_gettreestate',
    category: 'blockchain',
    required: 1,
    optional: 0,
    help: Z_GETTREESTATE_HELP,
    asciiResults: true,
    async call(params) {
      const arg = getStr(params[0]!);
      const hash =
        stringByteLength(arg) < HASH_HEX_LENGTH
          ? await activeHashAt(store, parseHeightString(arg, await tipHeight(store)))
          : uint256FromHexLenient(arg);
      const entry = await requireBlockIndex(store, hash);
      const tip = await store.tip();
      if (!entry.onBestChain || !tip || entry.height > tip.height) {
        throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Requested block is not part of the main chain');
      }
      const w = new JsonWriter();
      w.beginObject();
      w.key('hash').plainStr(toHexReversed(entry.hash));
      w.key('height').int(entry.height);
      w.key('time').int(int32LE(entry.header, 100) >>> 0);
      for (const pool of ['sprout' as const, ...SHIELDED_POOL_ENTRIES.map((p) => p.id as ShieldedPool)]) {
        const poolEntry = shieldedPool(pool);
        const activation = poolEntry ? store.network.activationHeights[poolEntry.upgrade] : 0;
        if (activation === null) continue;
        // A pool after zcashd's (Ironwood) is printed from its upgrade's activation on.
        if (poolEntry && !poolListedAt(poolEntry, store.network, entry.height)) continue;
        const root = await finalRoot(store, entry, pool);
        const tree = await treeAt(store, pool, root);
        w.key(pool).beginObject();
        if (!tree) {
          // The nearest ancestor (down to the pool's activation) whose root the coins view holds.
          let cursor: BlockIndexEntry | null = entry.height > 0 ? await store.blockIndex(entry.prevHash) : null;
          while (cursor && cursor.height >= activation && !(await treeAt(store, pool, await finalRoot(store, cursor, pool)))) {
            cursor = cursor.height > 0 ? await store.blockIndex(cursor.prevHash) : null;
          }
          if (cursor && cursor.height >= activation) w.key('skipHash').plainStr(toHexReversed(cursor.hash));
        }
        w.key('commitments').beginObject();
        // Orchard roots print as raw bytes since zcashd v5.3.0 (-legacyorchardroot: reversed); Sprout's and Sapling's reversed (GetHex).
        const raw = poolEntry?.rootsPrinted === 'raw' && !(pool === 'orchard' && options.legacyOrchardRoot);
        w.key('finalRoot').plainStr(raw ? toHex(root) : toHexReversed(root));
        if (tree) w.key('finalState').plainStr(tree.toTreeState(poolEntry?.treeStateLayout ?? POOL_TREE_STATE_LAYOUT.sprout));
        w.endObject();
        w.endObject();
      }
      w.endObject();
      return w.toString();
    },
  };
}
