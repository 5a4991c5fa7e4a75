/**
 * Writes an era-shaped chain (test-vectors/era-chain.ts, era-shapes.ts) as zcashd's blk files
 * (network magic ‖ u32 LE length ‖ block, 128 MiB a file), so `importBlkFiles` — the importer
 * `zecrpc import --blocks-dir` runs — reads it, and beside them `composition.json`: what every
 * window of blocks holds, per era, so the import model can predict the import before it runs.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import type { NetworkParams } from '../../src/chain/network.js';
import {
  addComposition,
  compositionOf,
  emptyComposition,
  EraChainGenerator,
  eraNetwork,
  type Composition,
  type EraActivations,
  type EraSolutions,
} from '../../test-vectors/era-chain.js';
import { eraChainBlocks, type EraSegment, type PlannedBlock } from '../../test-vectors/era-shapes.js';

/** zcashd's MAX_BLOCKFILE_SIZE. */
const BLK_FILE_BYTES = 128 * 1024 * 1024;

/** Blocks per window of `composition.json` (throughput over the import is read per window). */
export const WINDOW_BLOCKS = 1000;

export interface ChainFileComposition {
  /** The eras the chain was planned from, when it was (calibration chains give shapes directly). */
  segments?: EraSegment[];
  /** The generator's tag, with the segments (another tag, other keys and hashes). */
  tag?: string;
  /** Every block, genesis included. */
  total: Composition;
  byEra: Record<string, Composition>;
  /** Consecutive windows of WINDOW_BLOCKS blocks from height 0. */
  windows: Composition[];
  generatorSeconds: number;
  /** Where the chain activates NU6.2 and NU6.3, when it reaches its NU6.3 era (its network: `chainNetwork`). */
  activations?: EraActivations;
  /** Its headers' Equihash solutions (absent in chains written before they were recorded, all `regtest`). */
  solutions?: EraSolutions;
}

/**
 * The network a chain written under `dir` was built on (`eraNetwork`): with NU6.2 and NU6.3 where
 * its composition.json says the chain activated them, and headers with the solutions it records.
 */
export function chainNetwork(dir: string): NetworkParams {
  const file = join(dir, 'composition.json');
  const written = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<ChainFileComposition>) : {};
  // Planned with an NU6.3 era but no activation: built before era chains activated NU6.3, with
  // that era's blocks as v5 Orchard blocks and no JoinSplits, which no longer measures the eras.
  if (!written.activations && written.segments?.some((s) => s.era === 'nu63' && s.blocks > 0))
    throw new Error(`${dir} was built before era chains had JoinSplits and NU6.3's v6 blocks: generate it again`);
  // Planned, with regtest's 36-byte solutions unrecorded: headers 1,308 bytes short of mainnet's.
  if (!written.solutions && written.segments)
    throw new Error(`${dir} was built before era chains had headers of mainnet's size: generate it again`);
  return eraNetwork(written.activations, written.solutions);
}

/** A generator of a bench's chain: headers of mainnet's size (`mainnet-size` solutions), scriptSigs of `scriptSigBytes` (P2PKH's unless given). */
export function benchChainGenerator(tag: string, scriptSigBytes?: number): EraChainGenerator {
  return new EraChainGenerator({ tag, solutions: 'mainnet-size', ...(scriptSigBytes ? { scriptSigBytes } : {}) });
}

/** Builds `segments` on a new chain of a bench (benchChainGenerator), and writes it under `dir` (writeChainFile). */
export function writeEraChain(
  dir: string,
  segments: EraSegment[],
  tag: string,
  onProgress?: (height: number) => void,
): ChainFileComposition {
  const generator = benchChainGenerator(tag);
  const written = { ...writeChainFile(dir, generator, eraChainBlocks(generator, segments), onProgress), segments, tag };
  // The plan and tag go into composition.json too: a bench that reuses the chain checks it is the one it asks for.
  writeFileSync(join(dir, 'composition.json'), JSON.stringify(written, null, 1) + '\n');
  return written;
}

/**
 * Writes `generator`'s genesis and then `planned` under `dir`: blk files in `dir/blocks` and
 * `dir/composition.json`; `onProgress` hears the height every 1,000 blocks.
 */
export function writeChainFile(
  dir: string,
  generator: EraChainGenerator,
  planned: Iterable<PlannedBlock>,
  onProgress?: (height: number) => void,
): ChainFileComposition {
  const t0 = performance.now();
  const blocksDir = join(dir, 'blocks');
  mkdirSync(blocksDir, { recursive: true });
  const magic = Buffer.from(generator.network.magic);
  let fileIndex = 0;
  let fileBytes = 0;
  let fd = openSync(join(blocksDir, 'blk00000.dat'), 'w');
  const total = emptyComposition();
  const byEra: Record<string, Composition> = {};
  const windows: Composition[] = [];
  const write = (era: string, bytes: Uint8Array): void => {
    if (fileBytes + bytes.length + 8 > BLK_FILE_BYTES) {
      closeSync(fd);
      fileIndex++;
      fileBytes = 0;
      fd = openSync(join(blocksDir, `blk${String(fileIndex).padStart(5, '0')}.dat`), 'w');
    }
    const head = Buffer.alloc(8);
    magic.copy(head, 0);
    head.writeUInt32LE(bytes.length, 4);
    writeSync(fd, head);
    writeSync(fd, bytes);
    fileBytes += bytes.length + 8;
    const c = compositionOf(decodeBlock(bytes, CURRENT_CHAIN_ACCEPTANCE), bytes.length);
    addComposition(total, c);
    addComposition((byEra[era] ??= emptyComposition()), c);
    const w = Math.floor((total.blocks - 1) / WINDOW_BLOCKS);
    addComposition((windows[w] ??= emptyComposition()), c);
    if (total.blocks % 1000 === 0) onProgress?.(total.blocks - 1);
  };
  write('genesis', generator.genesis.bytes);
  for (const { era, block } of planned) write(era, block.bytes);
  closeSync(fd);
  const composition: ChainFileComposition = {
    total,
    byEra,
    windows,
    generatorSeconds: (performance.now() - t0) / 1000,
    ...(generator.nu63Activations ? { activations: generator.nu63Activations } : {}),
    solutions: generator.solutions,
  };
  writeFileSync(join(dir, 'composition.json'), JSON.stringify(composition, null, 1) + '\n');
  return composition;
}
