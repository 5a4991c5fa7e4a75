/**
 * zcashd's Checkpoints::GuessVerificationProgress (src/checkpoints.cpp) with the per-network
 * checkpoint data of src/chainparams.cpp: getblockchaininfo's `verificationprogress`.
 */
import type { NetworkName } from './network.js';

interface CheckpointData {
  /** UNIX time of the last checkpoint block. */
  timeLastCheckpoint: number;
  /** Transactions from genesis through the last checkpoint. */
  transactionsLastCheckpoint: number;
  /** Estimated transactions per day after the checkpoint. */
  transactionsPerDay: number;
}

const CHECKPOINT_DATA: Record<NetworkName, CheckpointData> = {
  mainnet: { timeLastCheckpoint: 1752983473, transactionsLastCheckpoint: 15537904, transactionsPerDay: 5967 },
  testnet: { timeLastCheckpoint: 1486897419, transactionsLastCheckpoint: 47163, transactionsPerDay: 715 },
  regtest: { timeLastCheckpoint: 0, transactionsLastCheckpoint: 0, transactionsPerDay: 0 },
};

/** Signature checks after the last checkpoint are assumed 5× as slow (fSigchecks = true). */
const SIGCHECK_VERIFICATION_FACTOR = 5.0;

/**
 * GuessVerificationProgress for a tip with `chainTx` transactions and block time `tipTime`,
 * at wall-clock second `now`. Same double operations in the same order as zcashd.
 */
export function guessVerificationProgress(network: NetworkName, chainTx: number, tipTime: number, now: number): number {
  const data = CHECKPOINT_DATA[network];
  let workBefore: number;
  let workAfter: number;
  if (chainTx <= data.transactionsLastCheckpoint) {
    const cheapBefore = chainTx;
    const cheapAfter = data.transactionsLastCheckpoint - chainTx;
    const expensiveAfter = ((now - data.timeLastCheckpoint) / 86400.0) * data.transactionsPerDay;
    workBefore = cheapBefore;
    workAfter = cheapAfter + expensiveAfter * SIGCHECK_VERIFICATION_FACTOR;
  } else {
    const cheapBefore = data.transactionsLastCheckpoint;
    const expensiveBefore = chainTx - data.transactionsLastCheckpoint;
    const expensiveAfter = ((now - tipTime) / 86400.0) * data.transactionsPerDay;
    workBefore = cheapBefore + expensiveBefore * SIGCHECK_VERIFICATION_FACTOR;
    workAfter = expensiveAfter * SIGCHECK_VERIFICATION_FACTOR;
  }
  return Math.min(workBefore / (workBefore + workAfter), 1.0);
}
