/**
 * getblockchaininfo's result object (zcashd v6.12.2 src/rpc/blockchain.cpp), rendered from
 * facts the caller gathered: the method reads the store, this module only writes JSON in
 * zcashd's member order.
 */
import { branchIdAt, MAJORITY_RULES, type NetworkParams } from '../chain/network.js';
import { chainWorkHex } from '../chain/pow.js';
import { hexInt, toHexReversed } from '../codec/hex.js';
import { JsonWriter } from '../json/index.js';
import { DEFAULT_COMPAT_PROFILE, type CompatProfile } from '../compat/profiles.js';
import type { PoolTotals } from '../state/value-pools.js';
import { listedValuePoolIds } from '../state/value-pools.js';

export interface BlockchainInfoFacts {
  network: NetworkParams;
  /** The release whose reply is reproduced (`-compat`): it lists the upgrades it knows. Default: the default profile. */
  profile?: CompatProfile;
  tipHeight: number;
  tipHash: Uint8Array;
  tipChainWork: bigint;
  bestHeaderHeight: number;
  difficulty: number;
  verificationProgress: number;
  sizeOnDisk: number;
  initialBlockDownloadComplete: boolean;
  estimatedHeight: number;
  /** Chain state after the tip; null when the store keeps none (those members are then omitted). */
  state: { sproutTreeSize: number; totals: PoolTotals } | null;
}

/** ValuePoolDesc without a delta: getblockchaininfo prints totals only. */
function writePoolTotal(w: JsonWriter, id: string | null, total: bigint | null): void {
  w.beginObject();
  if (id !== null) w.key('id').str(id);
  w.key('monitored').bool(total !== null);
  if (total !== null) {
    w.key('chainValue').amount(total);
    w.key('chainValueZat').int(total);
  }
  w.endObject();
}

/**
 * SoftForkMajorityDesc counts blocks with nVersion ≥ 2/3/4 among the last `window`. Every
 * block zcashd accepts has nVersion ≥ 4 (MIN_BLOCK_VERSION, CheckBlockHeader), so the count is
 * simply the number of blocks in the window — no headers need reading.
 */
function writeSoftForks(w: JsonWriter, tipHeight: number, network: NetworkParams): void {
  const { enforce, reject, window } = MAJORITY_RULES[network.name];
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
  for (const [id, version] of [
    ['bip34', 2],
    ['bip66', 3],
    ['bip65', 4],
  ] as const) {
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

/** Upgrades the profile's release knows that have an activation height, Overwinter onward, keyed by HexInt(branch id). */
function writeUpgrades(w: JsonWriter, tipHeight: number, network: NetworkParams, profile: CompatProfile): void {
  w.key('upgrades').beginObject();
  for (const u of network.upgrades) {
    if (u.activationHeight === null || !profile.upgrades.includes(u.name)) continue;
    w.key(hexInt(u.branchId)).beginObject();
    w.key('name').str(u.name);
    w.key('activationheight').int(u.activationHeight);
    w.key('status').str(tipHeight >= u.activationHeight ? 'active' : 'pending');
    w.key('info').str(`See https://z.cash/upgrade/${u.name.toLowerCase()}/ for details.`);
    w.endObject();
  }
  w.endObject();
}

export function blockchainInfoToJson(f: BlockchainInfoFacts): string {
  const { network } = f;
  const w = new JsonWriter();
  w.beginObject();
  w.key('chain').str(network.chain);
  w.key('blocks').int(f.tipHeight);
  if (f.state) w.key('initial_block_download_complete').bool(f.initialBlockDownloadComplete);
  w.key('headers').int(f.bestHeaderHeight);
  w.key('bestblockhash').str(toHexReversed(f.tipHash));
  w.key('difficulty').double(f.difficulty);
  w.key('verificationprogress').double(f.verificationProgress);
  w.key('chainwork').str(chainWorkHex(f.tipChainWork));
  w.key('pruned').bool(false);
  w.key('size_on_disk').int(f.sizeOnDisk);
  if (f.state) {
    w.key('estimatedheight').int(f.estimatedHeight);
    w.key('commitments').int(f.state.sproutTreeSize);
    w.key('chainSupply');
    writePoolTotal(w, null, f.state.totals.chainSupply);
    w.key('valuePools').beginArray();
    // A pool after zcashd's once the tip is past its upgrade's activation.
    for (const id of listedValuePoolIds({ network, height: f.tipHeight })) {
      const total = f.state.totals[id];
      // A pool registered after the totals were made held nothing.
      writePoolTotal(w, id, total === undefined ? 0n : total);
    }
    w.endArray();
  }
  writeSoftForks(w, f.tipHeight, network);
  writeUpgrades(w, f.tipHeight, network, f.profile ?? DEFAULT_COMPAT_PROFILE);
  w.key('consensus').beginObject();
  w.key('chaintip').str(hexInt(branchIdAt(network, f.tipHeight)));
  w.key('nextblock').str(hexInt(branchIdAt(network, f.tipHeight + 1)));
  w.endObject();
  // zecrpc has no wallet, so no connected block ever awaits a wallet notification.
  if (network.name === 'regtest') w.key('fullyNotified').bool(true);
  w.endObject();
  return w.toString();
}
