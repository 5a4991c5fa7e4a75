/**
 * Every method zecrpc serves over a chain store, by zcashd category. The control category's
 * `help` and `stop` belong to the server itself (rpc/http/server.ts), since `help` reads the
 * finished registry; getinfo and getexperimentalfeatures are here.
 */
import { SYSTEM_CLOCK, type NodeClock } from '../../clock.js';
import type { TxCreationDefaults } from '../../config.js';
import type { AddressIndexReader } from '../../store/indexes/address-index-reader.js';
import type { RelayPolicy } from '../../chain/tx-policy.js';
import type { ChainOperator, ChainStoreReader } from '../../store/types.js';
import type { RpcMethod } from '../method.js';
import { insightMethods, type InsightContext } from './addressindex/index.js';
import { blockchainMethods, type BlockchainMethodOptions } from './blockchain/index.js';
import { NO_EXPERIMENTAL_FEATURES, type ExperimentalFeatures } from './control/experimental-features.js';
import { getExperimentalFeaturesMethod } from './control/getexperimentalfeatures.js';
import { getInfoMethod, type FeeRates } from './control/getinfo.js';
import { getMemoryInfoMethod } from './control/getmemoryinfo.js';
import type { LogFilterTarget } from './control/log-filter.js';
import { setLogFilterMethod } from './control/setlogfilter.js';
import { setMockTimeMethod } from './control/setmocktime.js';
import { getChainTipsMethod } from './blockchain/getchaintips.js';
import { getTxOutMethod } from './blockchain/gettxout.js';
import { getTxOutSetInfoMethod } from './blockchain/gettxoutsetinfo.js';
import { invalidateBlockMethod, reconsiderBlockMethod } from './blockchain/invalidateblock.js';
import { verifyChainMethod } from './blockchain/verifychain.js';
import { mempoolMethods, withUpstreamFallback, type UpstreamRelay } from './mempool/index.js';
import { getBlockSubsidyMethod } from './mining/getblocksubsidy.js';
import type { BlockAcceptor } from './mining/bip22.js';
import { miningMethods } from './mining/index.js';
import { networkMethods } from './network/index.js';
import { rawTransactionMethods, txOutProofMethods } from './rawtransaction/index.js';
import { signRawTransactionMethod } from './rawtransaction/signrawtransaction.js';
import { SpentIndexLookup } from './spent-index-lookup.js';
import { utilMethods } from './util/index.js';
import { walletlessMethods } from './wallet/index.js';

export interface StoreMethodOptions extends BlockchainMethodOptions {
  /** -experimentalfeatures and the flags it allows (default: none enabled). */
  features?: ExperimentalFeatures;
  /** Reads of the store's address index (default: the store's own reader, when it serves one). */
  addressIndex?: AddressIndexReader;
  /** The -upstream node that answers mempool and relay calls (default: none). */
  upstream?: UpstreamRelay | null;
  /** -uacomment values for getinfo's subversion. */
  uaComments?: readonly string[];
  /** -paytxfee's and -minrelaytxfee's rates for getinfo (default zcashd's). */
  feeRates?: FeeRates;
  /** -datacarrier, -datacarriersize, -permitbaremultisig: what sendrawtransaction holds standard. */
  relayPolicy?: RelayPolicy;
  /**
   * The node's clock (`-mocktime`, `-clockoffset`; moved by setmocktime). Every method that
   * reads "now" reads it, unless `clock` overrides the seconds (default: the system clock).
   */
  nodeClock?: NodeClock;
  /** The deprecated features that are on (`-allowdeprecated`; default zcashd's: none that prints anything). */
  allowDeprecated?: ReadonlySet<string>;
  /** `-preferredtxversion` and `-txexpirydelta` for createrawtransaction (default zcashd's). */
  txCreation?: TxCreationDefaults;
  /** The writable store submitblock validates and stores blocks in (default none: they go to -upstream). */
  blockAcceptor?: BlockAcceptor | null;
  /** Where setlogfilter sends a filter (default: nowhere, as a node without a log). */
  logFilter?: LogFilterTarget | null;
}

/**
 * A store that serves its address index beside the chain (ChainStore, which composes its
 * readers); `keepsAddressIndex` false for one created without it (-addressindex=0).
 */
interface AddressIndexSource {
  addressIndexReader(): AddressIndexReader;
  readonly keepsAddressIndex?: boolean;
}

/** The store's address index; 'none' for a store that keeps none, null for a reader that serves none. */
function addressIndexOf(store: ChainStoreReader): AddressIndexReader | 'none' | null {
  const source = store as Partial<AddressIndexSource>;
  if (typeof source.addressIndexReader !== 'function') return null;
  return source.keepsAddressIndex === false ? 'none' : source.addressIndexReader();
}

/**
 * What the insight methods of a store without the address index are given: they answer zcashd's
 * "is disabled" (the flags that enable them are refused with such a store), and never read it.
 */
function withoutAddressIndex(store: ChainStoreReader, features: ExperimentalFeatures): InsightContext {
  return {
    store,
    features,
    get index(): AddressIndexReader {
      throw new Error('this chain store keeps no address index (-addressindex=0)');
    },
  };
}

/** The flags set that read the address index, as errors name them. */
export function addressIndexFlags(features: ExperimentalFeatures): string[] {
  return [...(features.insightExplorer ? ['-insightexplorer'] : []), ...(features.lightWalletd ? ['-lightwalletd'] : [])];
}

/** "-x reads the address index" / "-x and -y read the address index". */
export function readTheAddressIndex(flags: readonly string[]): string {
  return `${flags.join(' and ')} ${flags.length > 1 ? 'read' : 'reads'} the address index`;
}

/** A store that takes the operator's reorganizations (ChainStore). */
function operatorOf(store: ChainStoreReader): ChainOperator | null {
  const op = store as Partial<ChainOperator>;
  const { invalidateBlock, reconsiderBlock } = op;
  if (typeof invalidateBlock !== 'function' || typeof reconsiderBlock !== 'function') return null;
  return { invalidateBlock: (hash) => invalidateBlock.call(store, hash), reconsiderBlock: (hash) => reconsiderBlock.call(store, hash) };
}

export function storeMethods(store: ChainStoreReader, options: StoreMethodOptions = {}): RpcMethod[] {
  const features = options.features ?? NO_EXPERIMENTAL_FEATURES;
  const upstream = options.upstream ?? null;
  const nodeClock = options.nodeClock ?? SYSTEM_CLOCK;
  const clock = options.clock ?? nodeClock.seconds;
  const kept = options.addressIndex ?? addressIndexOf(store);
  if (kept === 'none' && addressIndexFlags(features).length > 0) {
    throw new Error(`${readTheAddressIndex(addressIndexFlags(features))}, which this chain store does not keep (-addressindex=0)`);
  }
  const index = kept === 'none' ? null : kept;
  // zcashd's fSpentIndex, which adds the spent index's members to transaction objects, is set by
  // -insightexplorer alone (not -lightwalletd).
  const spentIndexLookup = features.insightExplorer && index ? new SpentIndexLookup(index) : null;
  const raw = rawTransactionMethods(store, spentIndexLookup, options.txCreation, options.cacheReplies ?? true);
  const allowDeprecated = options.allowDeprecated ?? new Set<string>();
  const methods: RpcMethod[] = [
    ...blockchainMethods(store, { ...options, clock, lightwalletd: options.lightwalletd ?? features.lightWalletd, spentIndexLookup }),
    ...(upstream ? raw.map((m) => (m.name === 'getrawtransaction' ? withUpstreamFallback(m, upstream) : m)) : raw),
    getInfoMethod(store, { clock, uaComments: options.uaComments, feeRates: options.feeRates }),
    getExperimentalFeaturesMethod(features),
    ...mempoolMethods(store, upstream, options.relayPolicy),
    getBlockSubsidyMethod(store),
    ...utilMethods({ addrTypeField: allowDeprecated.has('addrtype') }),
    ...walletlessMethods(),
  ];
  if (index) methods.push(...insightMethods({ store, index, features }, features, upstream));
  else if (kept === 'none') methods.push(...insightMethods(withoutAddressIndex(store, features), features, upstream));
  // The node's status as one without peers or a miner, and the proofs and coins of its chain.
  methods.push(
    ...miningMethods(store, { upstream, clock, blockAcceptor: options.blockAcceptor }),
    getMemoryInfoMethod(),
    setLogFilterMethod(options.logFilter ?? null),
    setMockTimeMethod(nodeClock),
    ...networkMethods(store, {
      clock,
      clockMillis: nodeClock.millis,
      uaComments: options.uaComments,
      minRelayTxFee: options.feeRates?.minRelayTxFee,
      upstream,
      deprecationHeightField: allowDeprecated.has('deprecationinfo_deprecationheight'),
    }),
    ...txOutProofMethods(store),
    verifyChainMethod(store),
  );
  // The coins view, read through the chain state's reader (a store that keeps one); the coins
  // signrawtransaction spends when prevtxs does not name them.
  const coins = store.coinsView?.();
  if (coins)
    methods.push(
      getTxOutMethod(store, (txid, n) => coins.coin(txid, n), upstream),
      signRawTransactionMethod(store, coins),
    );
  const { coinScan } = store;
  if (coinScan) methods.push(getTxOutSetInfoMethod(store, () => coinScan.call(store)));
  // The block tree beside the active chain, and the operator's reorganizations of it.
  if (store.chainTips) methods.push(getChainTipsMethod(() => store.chainTips!()));
  const operator = operatorOf(store);
  if (operator) methods.push(invalidateBlockMethod(operator), reconsiderBlockMethod(operator));
  return methods;
}
