// The real blocks around NU6.3 (../shared/test-vectors/nu6.3) and what facts.json says of them.
import { readHexVector, readJsonVector } from './vectors.js';

export interface Nu63FactTx {
  txid: string;
  version: number;
  size: number;
  branch_id?: string;
  authdigest?: string;
  sapling_spends?: number;
  sapling_outputs?: number;
  orchard_actions?: number;
  orchard_flags?: number;
  ironwood_actions?: number;
  ironwood_flags?: number;
  vin?: number;
  vout?: number;
}

export interface Nu63FactBlock {
  network: 'mainnet' | 'testnet';
  height: number;
  hash: string;
  merkleroot: string;
  transactions: Nu63FactTx[];
}

/** facts.json's blocks, keyed `network/height`. */
export const nu63Facts: Readonly<Record<string, Nu63FactBlock>> = readJsonVector<{ blocks: Record<string, Nu63FactBlock> }>(
  'nu6.3',
  'facts.json',
).blocks;

/** A real block's bytes. */
export const nu63BlockBytes = (b: Pick<Nu63FactBlock, 'network' | 'height'>): Uint8Array =>
  readHexVector('nu6.3', 'blocks', b.network, `${b.height}.hex`);
