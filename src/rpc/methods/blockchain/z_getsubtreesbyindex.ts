/**
 * `z_getsubtreesbyindex "pool" start_index ( limit )` (zcashd v6.12.2 src/rpc/blockchain.cpp):
 * the roots of completed 2^16-leaf subtrees of the Sapling or Orchard tree, each with the height
 * of the block whose note completed it. Enabled, as in zcashd, only with
 * `-experimentalfeatures -lightwalletd`; otherwise its help carries zcashd's warning and calls
 * fail with its "is disabled" error.
 */
import { TRACKED_SUBTREE_HEIGHT } from '../../../state/trees/incremental.js';
import { getInt, getStr, JsonWriter } from '../../../json/index.js';
import { toHex } from '../../../codec/hex.js';
import type { NetworkParams } from '../../../chain/network.js';
import { poolOffered, SHIELDED_POOL_ENTRIES, shieldedPool, type ShieldedPoolId } from '../../../state/pools.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { disabledMessage, experimentalDisabledHelpMsg } from '../control/experimental-features.js';

/** zcashd builds this text at run time around TRACKED_SUBTREE_HEIGHT and the disabled warning. */
function help(disabledMsg: string): string {
  const h = String(TRACKED_SUBTREE_HEIGHT);
  return (
    'z_getsubtreesbyindex "pool" start_index ( limit )\n' +
    "Returns roots of subtrees of the given pool's note commitment tree. Each value returned\n" +
    `in the \`subtrees\` field is the Merkle root of a subtree containing 2^${h} leaves.\n` +
    disabledMsg +
    '\nArguments:\n' +
    '1. "pool"        (string, required) The pool from which subtrees should be returned. Either "sapling" or "orchard".\n' +
    `2. start_index   (numeric, required) The index of the first 2^${h}-leaf subtree to return.\n` +
    '2. limit         (numeric, optional) The maximum number of subtree values to return.\n' +
    '\nResult:\n' +
    '{\n' +
    '  "pool" : "sapling|orchard", (string) The shielded pool to which the subtrees belong\n' +
    '  "start_index": n,      (numeric) The index of the first subtree\n' +
    '  "subtrees": [          (array) A sequential list of complete subtrees\n' +
    '    {\n' +
    `      "root": "hash",    (string) Merkle root of the 2^${h}-leaf subtree\n` +
    '      "end_height": n,   (numeric) height of the block containing the note that completed this subtree\n' +
    '    }, ...\n' +
    '  ]\n' +
    '}\n' +
    '\nExamples:\n' +
    exampleCli('z_getsubtreesbyindex', '"sapling", 0') +
    exampleRpc('z_getsubtreesbyindex', '"orchard", 3, 7')
  );
}

/** The pools the network offers as zcashd's error names them: `"sapling" or "orchard"`. */
function poolChoices(network: NetworkParams): string {
  const names = SHIELDED_POOL_ENTRIES.filter((p) => poolOffered(p, network)).map((p) => `"${p.id}"`);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names.join('');
}

/** Subtree roots served per call at most when no limit is given (the tree holds far fewer). */
const UNLIMITED = 0x1_0000_0000;

export function zGetSubtreesByIndexMethod(store: ChainStoreReader, lightwalletd: boolean): RpcMethod {
  const name = 'z_getsubtreesbyindex';
  return {
    name,
    category: 'blockchain',
    required: 2,
    optional: 1,
    help: help(lightwalletd ? '' : experimentalDisabledHelpMsg(name, ['lightwalletd'])),
    asciiResults: true,
    async call(params) {
      if (!lightwalletd) throw new RpcError(RPC.MISC_ERROR, disabledMessage(name));
      const pool = getStr(params[0]!);
      const entry = shieldedPool(pool);
      // A pool after zcashd's exists only where its upgrade is configured (not under -compat=6.12.2).
      if (!entry || !poolOffered(entry, store.network))
        throw new RpcError(RPC.INVALID_PARAMETER, `Requested pool must be ${poolChoices(store.network)}`);
      // Both are read as int and stored in unsigned 64-bit variables, so a negative start names
      // an index no tree reaches, and a negative limit no limit at all.
      const start = getInt(params[1]!);
      const limitArg = params.length > 2 ? getInt(params[2]!) : null;
      const startIndex = BigInt.asUintN(64, BigInt(start));
      const limit = limitArg === null || limitArg < 0 ? UNLIMITED : limitArg;
      const subtrees = start < 0 ? [] : await store.subtrees(entry.id as ShieldedPoolId, start, limit);
      const w = new JsonWriter();
      w.beginObject();
      w.key('pool').str(pool);
      w.key('start_index').int(startIndex);
      w.key('subtrees').beginArray();
      // GetSubtreeData stops at the first missing index; the store's records are contiguous.
      let expected = start;
      for (const s of subtrees) {
        if (s.index !== expected++) break;
        w.beginObject().key('root').plainStr(toHex(s.root)).key('end_height').int(s.endHeight).endObject();
      }
      w.endArray();
      w.endObject();
      return w.toString();
    },
  };
}
