// lightwalletd testdata: more real blocks (checked against index.json, which an independent parser
// computed) and the deliberately broken `badblocks` lines, which must each fail with a clear error.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeBlock, decodeBlockHex } from '../../src/codec/block.js';
import { DecodeError } from '../../src/codec/errors.js';
import { hexToBytes, toHex, toHexReversed } from '../../src/codec/hex.js';
import { decodeTransactionHex } from '../../src/codec/tx/transaction.js';
import { readJsonVector, vectorPath } from '../support/vectors.js';

interface IndexBlock {
  where: string;
  network: string;
  height: number;
  hash: string;
  previousblockhash: string;
  merkleroot: string;
  size: number;
  time: number;
  bits: string;
  tx_count: number;
  merkle_check: boolean;
  txids: string[];
}
interface Index {
  blocks: IndexBlock[];
  transaction_files: { file: string; transactions?: { version: number; size: number; txid: string }[] }[];
  badblocks: { line: number; bytes?: number; error: string }[];
}

const index = readJsonVector<Index>('lightwalletd', 'index.json');

function lines(file: string): string[] {
  return readFileSync(vectorPath('lightwalletd', file), 'utf8')
    .split('\n')
    .map((l) => l.trim());
}

/** The hex of a block named by index.json's `where` ("mainnet_genesis line 3", "corpus/block0", "compact_blocks.json [2].full"). */
function blockHex(where: string): string {
  let m = /^(mainnet_genesis|blocks) line (\d+)$/.exec(where);
  if (m) return lines(m[1]!)[Number(m[2]) - 1]!;
  m = /^compact_blocks\.json \[(\d+)\]\.full$/.exec(where);
  if (m) return readJsonVector<{ full: string }[]>('lightwalletd', 'compact_blocks.json')[Number(m[1])]!.full;
  return readFileSync(vectorPath('lightwalletd', where), 'utf8').trim();
}

describe('lightwalletd real blocks vs index.json', () => {
  it('indexes all 35 blocks', () => expect(index.blocks.length).toBe(35));
  for (const b of index.blocks) {
    it(`${b.where}: ${b.network} ${b.height}`, () => {
      const block = decodeBlockHex(blockHex(b.where));
      expect(block.size).toBe(b.size);
      expect(block.hashHex).toBe(b.hash);
      expect(toHexReversed(block.header.prevHash)).toBe(b.previousblockhash);
      expect(toHexReversed(block.header.merkleRoot)).toBe(b.merkleroot);
      expect(block.header.time).toBe(b.time);
      expect(block.header.bits.toString(16).padStart(8, '0')).toBe(b.bits);
      expect(block.transactions.map((t) => t.txidHex)).toEqual(b.txids);
      expect(toHexReversed(block.computeMerkleRoot()) === b.merkleroot).toBe(b.merkle_check);
      for (const tx of block.transactions) expect(toHex(tx.serialize())).toBe(toHex(tx.bytes));
    });
  }

  it('compact_blocks.json: block hash and prev hash equal its own fields', () => {
    const rows = readJsonVector<{ block: number; hash: string; prev: string; full: string }[]>('lightwalletd', 'compact_blocks.json');
    expect(rows.length).toBe(6);
    for (const row of rows) {
      const block = decodeBlockHex(row.full);
      expect(block.hashHex).toBe(row.hash);
      expect(toHexReversed(block.header.prevHash)).toBe(row.prev);
    }
  });
});

describe('lightwalletd zip143_raw_tx / zip243_raw_tx', () => {
  const raw = (file: string) => lines(file).filter((l) => l !== '' && !l.startsWith('#'));
  const listed = (file: string) => index.transaction_files.find((t) => t.file === file)!.transactions!;

  it('zip143_raw_tx: both v3 transactions decode with the indexed txids and sizes', () => {
    const txs = raw('zip143_raw_tx');
    expect(txs.length).toBe(2);
    txs.forEach((hex, i) => {
      const want = listed('zip143_raw_tx')[i]!;
      const tx = decodeTransactionHex(hex);
      expect([tx.size, tx.data.version, tx.txidHex]).toEqual([want.size, want.version, want.txid]);
      expect(toHex(tx.serialize())).toBe(hex);
    });
  });

  // The ZIP-243 text vectors fill cv/rk with random bytes. An independent check (Python, the
  // Jubjub curve equation) shows spend 0's rk is not on the curve in both, so zcashd's v4 Sapling
  // parser rejects them at the first rk: byte 152 (first tx) and 249 (second).
  it("zip243_raw_tx: both are rejected at spend 0's rk, which is not a Jubjub point", () => {
    const txs = raw('zip243_raw_tx');
    expect(txs.length).toBe(2);
    txs.forEach((hex, i) => {
      const err = catchDecode(() => decodeTransactionHex(hex));
      expect(err.reason).toBe('invalid-sapling-v4');
      expect(err.what).toBe('Failed to parse v4 Sapling bundle: verification key is invalid: unspecified iostream_category error');
      expect(err.offset).toBe([152, 249][i]);
      expect(hex.length / 2).toBe(listed('zip243_raw_tx')[i]!.size);
    });
  });
});

describe('lightwalletd badblocks', () => {
  const bad = lines('badblocks').filter((l) => l !== '');

  it('has the 10 indexed lines', () => expect(bad.length).toBe(index.badblocks.length));

  it('line 1 (non-hex character) is rejected as invalid hex', () => {
    expect(index.badblocks[0]!.error).toBe('not valid hex');
    const err = catchDecode(() => decodeBlockHex(bad[0]!));
    expect(err.reason).toBe('invalid-hex');
    expect(err.what).toBe('not a valid hex string: unspecified iostream_category error');
  });

  for (const entry of index.badblocks.slice(1)) {
    it(`line ${entry.line}: ${entry.error}`, () => {
      const bytes = hexToBytes(bad[entry.line - 1]!);
      expect(bytes.length).toBe(entry.bytes);
      const err = catchDecode(() => decodeBlock(bytes));
      expect(err.reason).toBe('end-of-data');
      expect(err.what).toBe('CBaseDataStream::read(): end of data: unspecified iostream_category error');
      // We report where the data ran out; lightwalletd reports where the short field started.
      const m = /need (\d+) bytes at offset (\d+)/.exec(entry.error)!;
      expect(err.offset).toBe(bytes.length);
      expect(Number(m[2]) + Number(m[1])).toBeGreaterThan(bytes.length);
    });
  }
});

function catchDecode(f: () => unknown): DecodeError {
  try {
    f();
  } catch (e) {
    if (e instanceof DecodeError) return e;
    throw e;
  }
  throw new Error('expected a DecodeError');
}
