/**
 * `verificationprogress` of getblockchaininfo: zcashd's Checkpoints::GuessVerificationProgress
 * (src/checkpoints.cpp) with the per-network checkpoint data of src/chainparams.cpp. It needs
 * the tip's nChainTx (transactions from genesis through the tip), which the store does not
 * keep, so a small counter sums per-block tx counts and remembers recent answers.
 */
import { Buffer } from 'node:buffer';
import type { NetworkName } from '../../chain/network.js';
import type { BlockIndexEntry, ChainStoreReader } from '../../store/types.js';

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

const REMEMBERED_TIPS = 64;

/**
 * nChainTx of best-chain blocks, computed by walking parents until a remembered block (or
 * genesis). The first call on a long chain walks it all once; later tips only walk the blocks
 * added since. Only a few recent answers are kept, so memory stays constant.
 */
export class ChainTxCounter {
  private readonly known = new Map<string, number>();

  constructor(private readonly store: ChainStoreReader) {}

  async chainTx(entry: BlockIndexEntry): Promise<number> {
    const key = Buffer.from(entry.hash).toString('hex');
    const cached = this.known.get(key);
    if (cached !== undefined) return cached;

    let sum = 0;
    let cursor: BlockIndexEntry | null = entry;
    while (cursor) {
      const hit = this.known.get(Buffer.from(cursor.hash).toString('hex'));
      if (hit !== undefined) {
        sum += hit;
        break;
      }
      sum += cursor.txCount;
      cursor = cursor.height > 0 ? await this.store.blockIndex(cursor.prevHash) : null;
    }
    if (this.known.size >= REMEMBERED_TIPS) this.known.delete(this.known.keys().next().value!);
    this.known.set(key, sum);
    return sum;
  }
}
