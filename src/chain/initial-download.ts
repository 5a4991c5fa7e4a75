/**
 * Whether a node is still in its initial block download, and how high the network probably is
 * (zcashd v6.12.2 src/main.cpp IsInitialBlockDownload, src/metrics.cpp EstimateNetHeight):
 * getblockchaininfo's `initial_block_download_complete` and `estimatedheight`.
 */
import { isUpgradeActive, type NetworkName, type NetworkParams } from './network.js';

/** consensus.nMinimumChainWork (chainparams.cpp). */
export const MINIMUM_CHAIN_WORK: Readonly<Record<NetworkName, bigint>> = {
  mainnet: 0x18bd77669ac52c2fn,
  testnet: 0x263c0984a2n,
  regtest: 0n,
};

/** DEFAULT_MAX_TIP_AGE: a tip older than a day means the node is still catching up. */
export const MAX_TIP_AGE_SECONDS = 24 * 60 * 60;

export interface TipFacts {
  chainWork: bigint;
  /** nTime of the tip. */
  time: number;
}

/**
 * IsInitialBlockDownload without its latch (the caller keeps that): true while importing, with
 * no tip, with less than the minimum chain work, or with a tip older than MAX_TIP_AGE.
 * zcashd's activation-block hash checks are enforced at import here (header-rules.ts), so a
 * store never holds a chain they would reject.
 */
export function inInitialBlockDownload(network: NetworkParams, tip: TipFacts | null, now: number, importing: boolean): boolean {
  if (importing || !tip) return true;
  if (tip.chainWork < MINIMUM_CHAIN_WORK[network.name]) return true;
  return tip.time < now - MAX_TIP_AGE_SECONDS;
}

const spacing = (network: NetworkParams, height: number): number => (isUpgradeActive(network, 'Blossom', height) ? 75 : 150);

/** EstimateNetHeight: extrapolate from a block's height and time at the target spacing, rounded to tens. */
export function estimateNetHeight(network: NetworkParams, height: number, time: number, now: number): number {
  if (time >= now) return height;
  const estimated = height + Math.trunc((now - time) / spacing(network, height));
  const blossom = network.activationHeights.Blossom;
  if (blossom === null || height >= blossom || estimated <= blossom) return Math.trunc((estimated + 5) / 10) * 10;
  const preBlossomTime = (blossom - height) * spacing(network, blossom - 1);
  const blossomTime = time + preBlossomTime;
  if (blossomTime >= now) return blossom;
  const net = blossom + Math.trunc((now - blossomTime) / spacing(network, blossom));
  return Math.trunc((net + 5) / 10) * 10;
}
