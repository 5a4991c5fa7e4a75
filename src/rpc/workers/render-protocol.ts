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
}

export type RenderOutcome =
  | { id: number; text: string }
  | { id: number; bytes: Uint8Array }
  /** The block failed verification. */
  | { id: number; problem: string }
  /** The worker failed (a bug, not bad data). */
  | { id: number; error: string };
