// Where the shared, read-only test vectors live. CI checks out ../shared beside the repo;
// ZECRPC_VECTORS overrides (point it at a `test-vectors` folder). Never copied into the repo.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export const VECTORS_DIR: string = process.env.ZECRPC_VECTORS ?? resolve(here, '..', '..', '..', 'shared', 'test-vectors');

if (!existsSync(VECTORS_DIR)) {
  throw new Error(`test vectors not found at ${VECTORS_DIR}; set ZECRPC_VECTORS to the shared test-vectors folder`);
}

export function vectorPath(...parts: string[]): string {
  return join(VECTORS_DIR, ...parts);
}

/** Reads a `.hex` vector (trailing whitespace trimmed) as bytes. */
export function readHexVector(...parts: string[]): Uint8Array {
  const text = readFileSync(vectorPath(...parts), 'utf8').trim();
  return new Uint8Array(Buffer.from(text, 'hex'));
}

export function readJsonVector<T = unknown>(...parts: string[]): T {
  return JSON.parse(readFileSync(vectorPath(...parts), 'utf8')) as T;
}

export interface RealBlockFile {
  network: 'mainnet' | 'testnet';
  height: number;
  file: string;
}

/** Every real block under blocks/mainnet and blocks/testnet, sorted by network then height. */
export function realBlockFiles(): RealBlockFile[] {
  const out: RealBlockFile[] = [];
  for (const network of ['mainnet', 'testnet'] as const) {
    for (const name of readdirSync(vectorPath('blocks', network))) {
      if (!name.endsWith('.hex')) continue;
      out.push({ network, height: Number(name.slice(0, -4)), file: join('blocks', network, name) });
    }
  }
  return out.sort((a, b) => (a.network === b.network ? a.height - b.height : a.network < b.network ? -1 : 1));
}

/** zcashd-2019 golden blocks: heights present in that folder. */
export function zcashd2019Heights(): number[] {
  return readdirSync(vectorPath('zcashd-2019'))
    .filter((n) => n.endsWith('.hex'))
    .map((n) => Number(n.slice(0, -4)))
    .sort((a, b) => a - b);
}

/** One transaction's entry in facts.json (computed from the raw blocks by an independent parser). */
export interface FactTx {
  txid: string;
  authdigest: string;
  version: number;
  overwintered: boolean;
  size: number;
  locktime: number;
  vin: number;
  vout: number;
  joinsplits: number;
  sapling_spends: number;
  sapling_outputs: number;
  orchard_actions: number;
}

/** One block's entry in facts.json. */
export interface FactBlock {
  network: string;
  height: number;
  file: string;
  hash: string;
  size: number;
  version: number;
  previousblockhash: string;
  merkleroot: string;
  blockcommitments: string;
  time: number;
  bits: string;
  nonce: string;
  tx_count: number;
  merkle_check: boolean;
  txids: string[];
  transactions: FactTx[];
}

export interface FactsFile {
  summary: { blocks: number };
  blocks: FactBlock[];
}

export function readFacts(): FactsFile {
  return readJsonVector<FactsFile>('facts.json');
}
