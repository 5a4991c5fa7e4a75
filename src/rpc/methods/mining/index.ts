/**
 * The mining and generating categories (zcashd v6.12.2 src/rpc/mining.cpp `commands[]`) for a
 * node that does not mine: status read from the stored chain, block templates and submissions
 * relayed to the -upstream node when there is one. (getblocksubsidy, which reads only the height,
 * is registered on its own.)
 */
import type { ChainStoreReader } from '../../../store/types.js';
import type { BlockAcceptor } from './bip22.js';
import type { RpcMethod } from '../../method.js';
import type { UpstreamRelay } from '../mempool/upstream-relay.js';
import { generateMethod } from './generate.js';
import { GenerateSetting } from './generate-setting.js';
import { getBlockTemplateMethod } from './getblocktemplate.js';
import { getGenerateMethod } from './getgenerate.js';
import { getLocalSolPsMethod } from './getlocalsolps.js';
import { getMiningInfoMethod } from './getmininginfo.js';
import { getNetworkHashPsMethod, getNetworkSolPsMethod } from './getnetworksolps.js';
import { prioritiseTransactionMethod } from './prioritisetransaction.js';
import { setGenerateMethod } from './setgenerate.js';
import { submitBlockMethod } from './submitblock.js';

export interface MiningMethodOptions {
  upstream?: UpstreamRelay | null;
  /** Wall clock in seconds. */
  clock?: () => number;
  /** The store submitblock adds blocks to (default none: new blocks go to -upstream). */
  blockAcceptor?: BlockAcceptor | null;
}

export function miningMethods(store: ChainStoreReader, options: MiningMethodOptions = {}): RpcMethod[] {
  const upstream = options.upstream ?? null;
  const clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
  const setting = new GenerateSetting();
  return [
    getLocalSolPsMethod(),
    getNetworkSolPsMethod(store),
    getNetworkHashPsMethod(store),
    getMiningInfoMethod(store, { setting, upstream, clock }),
    prioritiseTransactionMethod(upstream),
    getBlockTemplateMethod(upstream),
    submitBlockMethod(store, upstream, options.blockAcceptor ?? null),
    getGenerateMethod(setting),
    setGenerateMethod(setting),
    generateMethod(),
  ];
}
