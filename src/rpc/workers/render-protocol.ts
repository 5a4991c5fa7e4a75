/** Messages between the render pool and its worker threads. */
import type { NetworkParams } from '../../chain/network.js';
import type { BlockChainContext } from '../../render/block.js';

export interface RenderJob {
  id: number;
  bytes: Uint8Array;
  verbosity: 0 | 1 | 2;
  context: BlockChainContext | null;
  /** The whole parameter set (regtest's upgrade schedule may come from -nuparams). */
  network: NetworkParams;
  /**
   * Shared memory to write the result into when it fits (reply-slab.ts). The buffer travels
   * with the first job that uses the slab; later jobs name it by id.
   */
  slab?: { id: number; buffer?: SharedArrayBuffer };
}

/** What a worker thread is started with. */
export interface RenderWorkerData {
  /** How much lower than the event loop's the thread's CPU priority is (thread-priority.ts). */
  niceness: number;
}

export type RenderOutcome =
  | { id: number; text: string }
  | { id: number; bytes: Uint8Array }
  /** The result is the first `slabLength` bytes of the job's slab. */
  | { id: number; slabLength: number }
  /** The block failed verification. */
  | { id: number; problem: string }
  /** The worker failed (a bug, not bad data). */
  | { id: number; error: string };
