// Shared helpers for the store tests: temporary data dirs and the vector chains.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeBlock } from '../../src/codec/block.js';
import type { ChainStore } from '../../src/store/index.js';
import { readHexVector, readJsonVector, vectorPath } from './vectors.js';

export function tempDir(label: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), `zecrpc-${label}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

const hexLines = (file: string): Uint8Array[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .map((l) => new Uint8Array(Buffer.from(l, 'hex')));

/** Real mainnet blocks 0..20 (lightwalletd testdata), line n = height n. */
export function mainnetChain(): Uint8Array[] {
  return hexLines(vectorPath('lightwalletd', 'mainnet_genesis'));
}

export function testnetChain(): Uint8Array[] {
  return Array.from(
    { length: 11 },
    (_, h) => new Uint8Array(Buffer.from(readFileSync(vectorPath('blocks', 'testnet', `${h}.hex`), 'utf8').trim(), 'hex')),
  );
}

const here = dirname(fileURLToPath(import.meta.url));
export const REGTEST_REORG_DIR = join(here, '..', '..', 'test-vectors', 'regtest-reorg');

export interface RegtestReorgVectors {
  base: Uint8Array[];
  branch: Uint8Array[];
  manifest: { forkHeight: number; base: { height: number; hash: string }[]; branch: { height: number; hash: string }[] };
}

export function regtestReorg(): RegtestReorgVectors {
  return {
    base: hexLines(join(REGTEST_REORG_DIR, 'base.hex')),
    branch: hexLines(join(REGTEST_REORG_DIR, 'branch.hex')),
    manifest: JSON.parse(readFileSync(join(REGTEST_REORG_DIR, 'manifest.json'), 'utf8')),
  };
}

export const hex = (b: Uint8Array | null | undefined): string | null => (b ? Buffer.from(b).reverse().toString('hex') : null);

/** zcashd blk-file framing: magic ‖ u32 LE length ‖ block, for each block. */
export function blkRecords(magic: Uint8Array, blocks: readonly Uint8Array[]): Buffer {
  return Buffer.concat(
    blocks.flatMap((b) => {
      const head = Buffer.alloc(8);
      head.set(magic, 0);
      head.writeUInt32LE(b.length, 4);
      return [head, Buffer.from(b)];
    }),
  );
}

/**
 * Starts an empty mainnet store at the Sapling checkpoint 419201 (headers 419199–419201, zcashd's
 * tree state there) and connects block 419202, as `zecrpc import` from that checkpoint would.
 * The chain work is the operator's to give: only printed, never checked. With `connect: false`
 * the store is left at the checkpoint's header, block 419202 not added.
 */
export async function startAtSaplingCheckpoint(store: ChainStore, { connect = true }: { connect?: boolean } = {}): Promise<void> {
  const roots = readJsonVector<{ sapling_treestates: { final_state_hex: string }[] }>('roots.json');
  const block = (h: number): Uint8Array => readHexVector('blocks', 'mainnet', `${h}.hex`);
  await store.startFromCheckpoint({
    height: 419201,
    headers: [419199, 419200, 419201].map((h) => decodeBlock(block(h)).header.bytes),
    chainWork: 1n << 60n,
    chainTx: null,
    state: {
      sprout: '000000',
      sapling: roots.sapling_treestates[0]!.final_state_hex,
      orchard: '000000',
      history: null,
      totals: { sapling: null },
    },
  });
  if (!connect) return;
  const r = await store.addBlock(block(419202));
  if (r.status !== 'connected') throw new Error(`block 419202 was not connected (${r.status})`);
}
