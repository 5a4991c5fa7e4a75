/**
 * `getchaintips` (zcashd v6.12.2 src/rpc/blockchain.cpp): every block the store holds without a
 * child, and the active tip, highest first, with the branch length to the active chain and
 * zcashd's status. The store keeps the set of childless blocks as it accepts them
 * (store/chain-tips.ts), so a call reads the tips and walks their side branches only.
 */
import { JsonWriter } from '../../../json/writer.js';
import type { ChainTipInfo } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';

export const GETCHAINTIPS_HELP: string =
  'getchaintips\n' +
  'Return information about all known tips in the block tree, including the main chain as well as orphaned branches.\n' +
  '\nResult:\n' +
  '[\n' +
  '  {\n' +
  '    "height": xxxx,         (numeric) height of the chain tip\n' +
  '    "hash": "xxxx",         (string) block hash of the tip\n' +
  '    "branchlen": 0          (numeric) zero for main chain\n' +
  '    "status": "active"      (string) "active" for the main chain\n' +
  '  },\n' +
  '  {\n' +
  '    "height": xxxx,\n' +
  '    "hash": "xxxx",\n' +
  '    "branchlen": 1          (numeric) length of branch connecting the tip to the main chain\n' +
  '    "status": "xxxx"        (string) status of the chain (active, valid-fork, valid-headers, headers-only, invalid)\n' +
  '  }\n' +
  ']\n' +
  'Possible values for status:\n' +
  '1.  "invalid"               This branch contains at least one invalid block\n' +
  '2.  "headers-only"          Not all blocks for this branch are available, but the headers are valid\n' +
  '3.  "valid-headers"         All blocks are available for this branch, but they were never fully validated\n' +
  '4.  "valid-fork"            This branch is not part of the active chain, but is fully validated\n' +
  '5.  "active"                This is the tip of the active main chain, which is certainly valid\n' +
  '\nExamples:\n' +
  exampleCli('getchaintips', '') +
  exampleRpc('getchaintips', '');

/** The reply: zcashd's member order (height, hash, branchlen, status). */
export function writeChainTips(tips: readonly ChainTipInfo[]): string {
  const w = new JsonWriter().beginArray();
  for (const tip of tips) {
    w.beginObject();
    w.key('height').int(tip.height);
    w.key('hash').hexStrReversed(tip.hash);
    w.key('branchlen').int(tip.branchLength);
    w.key('status').plainStr(tip.status);
    w.endObject();
  }
  return w.endArray().toString();
}

export function getChainTipsMethod(tips: () => Promise<ChainTipInfo[]>): RpcMethod {
  return {
    name: 'getchaintips',
    category: 'blockchain',
    required: 0,
    optional: 0,
    help: GETCHAINTIPS_HELP,
    cost:
      'reads the childless blocks the store keeps (a few rows) and walks each side branch back to the active chain. ' +
      'The first call on a store written before zecrpc kept that set reads every block index record once, ' +
      'with the writer queue held, and stores the set.',
    asciiResults: true,
    async call() {
      return writeChainTips(await tips());
    },
  };
}
