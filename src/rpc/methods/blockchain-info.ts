/**
 * `getblockchaininfo` and `getdifficulty` (src/rpc/blockchain.cpp, v6.12.2).
 *
 * getblockchaininfo prints, in zcashd's order, every member derivable from the chain store:
 * chain, blocks, headers, bestblockhash, difficulty, verificationprogress, chainwork, pruned,
 * size_on_disk, softforks, upgrades, consensus. Omitted until zecrpc keeps the state they need:
 * `initial_block_download_complete` and `estimatedheight` (IsInitialBlockDownload: import/reindex
 * state and minimum-chain-work of a syncing node), `commitments` (the Sprout tree),
 * `chainSupply` and `valuePools` (value-pool totals), and regtest's `fullyNotified` (the wallet
 * notification thread).
 */
import { upgradeAt, type NetworkParams } from '../../chain/network.js';
import { chainWorkHex, difficultyFromBits } from '../../chain/pow.js';
import { hexInt, toHexReversed } from '../../codec/hex.js';
import { formatDouble, JsonWriter } from '../../json/index.js';
import type { BlockIndexEntry, ChainStoreReader } from '../../store/types.js';
import type { RpcMethod } from '../method.js';
import { requireTip } from './blockchain-context.js';
import { GETBLOCKCHAININFO_HELP, GETDIFFICULTY_HELP } from './blockchain-help.js';
import { nextWorkRequired } from './blockchain-nextwork.js';
import { ChainTxCounter, guessVerificationProgress } from './blockchain-progress.js';

/** BIP34/66/65 majority parameters (chainparams.cpp: nMajorityEnforce/Reject, nMajorityWindow). */
const MAJORITY: Record<NetworkParams['name'], { enforce: number; reject: number; window: number }> = {
  mainnet: { enforce: 750, reject: 950, window: 4000 },
  testnet: { enforce: 51, reject: 75, window: 400 },
  regtest: { enforce: 750, reject: 950, window: 1000 },
};

/** Wall-clock seconds; injectable so verificationprogress can be checked exactly. */
export type Clock = () => number;
export const systemClock: Clock = () => Math.floor(Date.now() / 1000);

/**
 * GetNetworkDifficulty: the difficulty of the target required of the block after the tip
 * (zcashd answers 1.0 when there is no tip at all).
 */
async function networkDifficulty(store: ChainStoreReader, tipEntry: BlockIndexEntry | null): Promise<number> {
  if (!tipEntry) return 1.0;
  return difficultyFromBits(await nextWorkRequired(store, tipEntry, store.network), store.network);
}

/**
 * SoftForkMajorityDesc counts blocks with nVersion ≥ 2/3/4 among the last `window`. Every
 * block zcashd accepts has nVersion ≥ 4 (MIN_BLOCK_VERSION, CheckBlockHeader), so the count is
 * simply the number of blocks in the window — no headers need reading.
 */
function writeSoftForks(w: JsonWriter, tipHeight: number, network: NetworkParams): void {
  const { enforce, reject, window } = MAJORITY[network.name];
  const found = Math.min(window, tipHeight + 1);
  const majority = (required: number): void => {
    w.beginObject();
    w.key('status').bool(found >= required);
    w.key('found').int(found);
    w.key('required').int(required);
    w.key('window').int(window);
    w.endObject();
  };
  w.key('softforks').beginArray();
  for (const [id, version] of [['bip34', 2], ['bip66', 3], ['bip65', 4]] as const) {
    w.beginObject();
    w.key('id').str(id);
    w.key('version').int(version);
    w.key('enforce');
    majority(enforce);
    w.key('reject');
    majority(reject);
    w.endObject();
  }
  w.endArray();
}

/** Upgrades with an activation height, Overwinter onward, keyed by HexInt(branch id). */
function writeUpgrades(w: JsonWriter, tipHeight: number, network: NetworkParams): void {
  w.key('upgrades').beginObject();
  for (const u of network.upgrades) {
    if (u.activationHeight === null) continue;
    w.key(hexInt(u.branchId)).beginObject();
    w.key('name').str(u.name);
    w.key('activationheight').int(u.activationHeight);
    w.key('status').str(tipHeight >= u.activationHeight ? 'active' : 'pending');
    w.key('info').str(`See https://z.cash/upgrade/${u.name.toLowerCase()}/ for details.`);
    w.endObject();
  }
  w.endObject();
}

function branchIdAt(network: NetworkParams, height: number): string {
  return hexInt(upgradeAt(network, height)?.branchId ?? 0);
}

export function getBlockchainInfoMethod(store: ChainStoreReader, clock: Clock = systemClock): RpcMethod {
  const chainTx = new ChainTxCounter(store);
  return {
    name: 'getblockchaininfo',
    category: 'blockchain',
    required: 0,
    optional: 0,
    help: GETBLOCKCHAININFO_HELP,
    async call() {
      const network = store.network;
      const tip = await requireTip(store);
      const tipEntry = await store.blockIndex(tip.hash);
      if (!tipEntry) throw new Error('chain store tip has no index entry');
      const w = new JsonWriter();
      w.beginObject();
      w.key('chain').str(network.chain);
      w.key('blocks').int(tip.height);
      w.key('headers').int(await store.bestHeaderHeight());
      w.key('bestblockhash').str(toHexReversed(tip.hash));
      w.key('difficulty').double(await networkDifficulty(store, tipEntry));
      const tipTime = new DataView(tipEntry.header.buffer, tipEntry.header.byteOffset + 100, 4).getUint32(0, true);
      const progress = guessVerificationProgress(network.name, await chainTx.chainTx(tipEntry), tipTime, clock());
      w.key('verificationprogress').double(progress);
      w.key('chainwork').str(chainWorkHex(tipEntry.chainWork));
      w.key('pruned').bool(false);
      w.key('size_on_disk').int(await store.sizeOnDisk());
      writeSoftForks(w, tip.height, network);
      writeUpgrades(w, tip.height, network);
      w.key('consensus').beginObject();
      w.key('chaintip').str(branchIdAt(network, tip.height));
      w.key('nextblock').str(branchIdAt(network, tip.height + 1));
      w.endObject();
      w.endObject();
      return w.toString();
    },
  };
}

export function getDifficultyMethod(store: ChainStoreReader): RpcMethod {
  return {
    name: 'getdifficulty',
    category: 'blockchain',
    required: 0,
    optional: 0,
    help: GETDIFFICULTY_HELP,
    async call() {
      const tip = await store.tip();
      return formatDouble(await networkDifficulty(store, tip ? await store.blockIndex(tip.hash) : null));
    },
  };
}
