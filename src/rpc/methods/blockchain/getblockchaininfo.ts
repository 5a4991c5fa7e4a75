/**
 * `getblockchaininfo` (zcashd v6.12.2 src/rpc/blockchain.cpp): every member, in zcashd's order.
 * IsInitialBlockDownload latches to false per process, as in zcashd; zecrpc's own import runs
 * in another process (LevelDB admits one), so a serving store is never "importing" — it follows
 * an upstream, which keeps the tip recent. `fullyNotified` (regtest) is true: zecrpc has no
 * wallet to notify.
 */
import { estimateNetHeight, inInitialBlockDownload } from '../../../chain/initial-download.js';
import { guessVerificationProgress } from '../../../chain/verification-progress.js';
import { blockchainInfoToJson } from '../../../render/chain-info.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc, helpLines as lines } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import { requireTip } from './context.js';
import { medianTimePastOf, networkDifficulty } from './network-difficulty.js';

/** Wall-clock seconds; injectable so verificationprogress can be checked exactly. */
export type Clock = () => number;
export const systemClock: Clock = () => Math.floor(Date.now() / 1000);

export const GETBLOCKCHAININFO_HELP: string =
  lines(
    'getblockchaininfo',
    'Returns an object containing various state info regarding block chain processing.',
    '',
    'Note that when the chain tip is at the last block before a network upgrade activation,',
    'consensus.chaintip != consensus.nextblock.',
    '',
    'Result:',
    '{',
    '  "chain": "xxxx",        (string) current network name as defined in BIP70 (main, test, regtest)',
    '  "blocks": xxxxxx,         (numeric) the current number of blocks processed in the server',
    '  "initial_block_download_complete": xx, (boolean) true if the initial download of the blockchain is complete',
    '  "headers": xxxxxx,        (numeric) the current number of headers we have validated',
    '  "bestblockhash": "...", (string) the hash of the currently best block',
    '  "difficulty": xxxxxx,     (numeric) the current difficulty',
    '  "verificationprogress": xxxx, (numeric) estimate of verification progress [0..1]',
    '  "estimatedheight": xxxx,  (numeric) if syncing, the estimated height of the chain, else the current best height',
    '  "chainwork": "xxxx"     (string) total amount of work in active chain, in hexadecimal',
    '  "size_on_disk": xxxxxx,       (numeric) the estimated size of the block and undo files on disk',
    '  "commitments": xxxxxx,    (numeric) the current number of note commitments in the commitment tree',
    '  "chainSupply": {          (object) information about the total supply',
    '      "monitored": xx,           (boolean) true if the total supply is being monitored',
    '      "chainValue": xxxxxx,      (numeric, optional) total chain supply after this block, in ZEC',
    '      "chainValueZat": xxxxxx,   (numeric, optional) total chain supply after this block, in zatoshis',
    '  }',
    '  "valuePools": [            (array) information about each value pool',
    '      {',
    '          "id": "xxxx",            (string) name of the pool',
    '          "monitored": xx,           (boolean) true if the pool is being monitored',
    '          "chainValue": xxxxxx,      (numeric, optional) total amount in the pool, in ZEC',
    '          "chainValueZat": xxxxxx,   (numeric, optional) total amount in the pool, in zatoshis',
    '      }, ...',
    '  ]',
    '  "softforks": [            (array) status of softforks in progress',
    '     {',
    '        "id": "xxxx",        (string) name of softfork',
    '        "version": xx,         (numeric) block version',
    '        "enforce": {           (object) progress toward enforcing the softfork rules for new-version blocks',
    '           "status": xx,       (boolean) true if threshold reached',
    '           "found": xx,        (numeric) number of blocks with the new version found',
    '           "required": xx,     (numeric) number of blocks required to trigger',
    '           "window": xx,       (numeric) maximum size of examined window of recent blocks',
    '        },',
    '        "reject": { ... }      (object) progress toward rejecting pre-softfork blocks (same fields as "enforce")',
    '     }, ...',
    '  ],',
    '  "upgrades": {                (object) status of network upgrades',
    '     "xxxx" : {                (string) branch ID of the upgrade',
    '        "name": "xxxx",        (string) name of upgrade',
    '        "activationheight": xxxxxx,  (numeric) block height of activation',
    '        "status": "xxxx",      (string) status of upgrade',
    '        "info": "xxxx",        (string) additional information about upgrade',
    '     }, ...',
    '  },',
    '  "consensus": {               (object) branch IDs of the current and upcoming consensus rules',
    '     "chaintip": "xxxxxxxx",   (string) branch ID used to validate the current chain tip',
    '     "nextblock": "xxxxxxxx"   (string) branch ID that the next block will be validated under',
    '  }',
    '}',
    '',
    'Examples:',
  ) +
  exampleCli('getblockchaininfo', '') +
  exampleRpc('getblockchaininfo', '');

export function getBlockchainInfoMethod(
  store: ChainStoreReader,
  clock: Clock = systemClock,
  knownChainHeight: () => number = () => -1,
): RpcMethod {
  let leftInitialDownload = false;
  return {
    name: 'getblockchaininfo',
    category: 'blockchain',
    required: 0,
    optional: 0,
    help: GETBLOCKCHAININFO_HELP,
    async call(_params, ctx) {
      const network = store.network;
      const tip = await requireTip(store);
      const tipEntry = await store.blockIndex(tip.hash);
      if (!tipEntry) throw new Error('chain store tip has no index entry');
      const tipTime = new DataView(tipEntry.header.buffer, tipEntry.header.byteOffset + 100, 4).getUint32(0, true);
      const chainTx = await store.chainTx(tip.hash);
      if (chainTx === null) throw new Error('chain store tip has no nChainTx record');
      const now = clock();
      leftInitialDownload ||= !inInitialBlockDownload(network, { chainWork: tipEntry.chainWork, time: tipTime }, now, false);
      const stateTip = await store.chainStateTip();
      return blockchainInfoToJson({
        network,
        ...(ctx.profile ? { profile: ctx.profile } : {}),
        tipHeight: tip.height,
        tipHash: tip.hash,
        tipChainWork: tipEntry.chainWork,
        bestHeaderHeight: Math.max(await store.bestHeaderHeight(), knownChainHeight()),
        difficulty: await networkDifficulty(store, tipEntry),
        verificationProgress: guessVerificationProgress(network.name, chainTx, tipTime, now),
        sizeOnDisk: await store.sizeOnDisk(),
        initialBlockDownloadComplete: leftInitialDownload,
        estimatedHeight: leftInitialDownload
          ? tip.height
          : estimateNetHeight(network, tip.height, await medianTimePastOf(store, tipEntry), now),
        state: stateTip ? { sproutTreeSize: stateTip.trees.sprout.size, totals: stateTip.totals } : null,
      });
    },
  };
}
