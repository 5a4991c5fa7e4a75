/**
 * Where a checkpoint start (ChainStore.startFromCheckpoint) gets its state: a JSON file the
 * operator supplies, or a running zcashd, zecrpc or Zebra asked over JSON-RPC for what it shows
 * about the block (`getblockheader … false` for the 28 headers the difficulty rules need,
 * `getblock … 1` for the chain work and pool totals, `z_gettreestate` for the tree frontiers).
 * Neither node exposes the ZIP-221 history tree or nChainTx: the history stays unknown until the
 * next upgrade starts a new tree (its commitments are reported, not checked), and nChainTx counts
 * from 0. Zebra reports no chain work and no Sprout tree: chain work then counts from the first
 * checkpoint header, and the Sprout tree starts empty; each is logged once.
 */
import { readTextBounded } from '../bounded-read.js';
import { NEXT_WORK_WINDOW } from '../chain/difficulty.js';
import { hexToBytesStrict, toHexReversed } from '../codec/hex.js';
import { decodeBlockHeader } from '../codec/block.js';
import { blockWork } from '../chain/pow.js';
import { sha256d } from '../crypto/hash.js';
import type { CheckpointStart } from '../store/chain.js';
import type { ShieldedPool } from '../state/chain-state.js';
import { shieldedPool, treePools, type ExtensionPoolId, type ZcashdPoolId } from '../state/pools.js';
import { valuePoolIds, type PoolTotals } from '../state/value-pools.js';
import { ImportError } from './block-sink.js';
import type { JsonRpcClient } from './rpc-client.js';

/** The file form: hex headers oldest first, decimal or 0x-hex numbers, zatoshi totals as strings. */
export interface CheckpointFile {
  height: number;
  headers: string[];
  chainWork: string;
  chainTx?: number | null;
  /** Sprout's and each registered pool's tree state (state/pools.ts), by pool id. */
  state: { [P in 'sprout' | ZcashdPoolId]: string } & { [P in ExtensionPoolId]?: string } & {
    totals?: Partial<Record<keyof PoolTotals, string | null>>;
  };
}

function hexBytes(hex: string, what: string): Uint8Array {
  const bytes = hexToBytesStrict(hex);
  if (!bytes) throw new ImportError(`checkpoint: ${what} is not hex`);
  return bytes;
}

function bigintOf(text: string, what: string): bigint {
  try {
    return BigInt(/^[0-9a-fA-F]{64}$/.test(text) ? `0x${text}` : text);
  } catch {
    throw new ImportError(`checkpoint: ${what} ${JSON.stringify(text)} is not a number`);
  }
}

const totalIds = (): (keyof PoolTotals)[] => ['chainSupply', ...valuePoolIds()];

/** Checks and converts the file form; anything of the wrong shape is named. */
export function checkpointFromJson(json: CheckpointFile): CheckpointStart {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ImportError('checkpoint: expected a JSON object');
  if (!Number.isInteger(json.height) || json.height < 0) throw new ImportError('checkpoint: height must be a non-negative integer');
  if (!Array.isArray(json.headers) || json.headers.length === 0)
    throw new ImportError('checkpoint: headers must list at least the checkpoint block header');
  if (json.headers.some((h) => typeof h !== 'string')) throw new ImportError('checkpoint: every header must be a hex string');
  if (typeof json.chainWork !== 'string')
    throw new ImportError('checkpoint: chainWork must be a string (decimal, 0x-hex or 64 hex digits)');
  if (json.chainTx !== undefined && json.chainTx !== null && (!Number.isSafeInteger(json.chainTx) || json.chainTx < 0))
    throw new ImportError('checkpoint: chainTx must be a non-negative integer or null');
  const state = json.state as Partial<CheckpointFile['state']> | undefined;
  if (typeof state !== 'object' || state === null) throw new ImportError('checkpoint: state must be an object of tree states');
  const trees: Partial<Record<ShieldedPool, string>> = {};
  for (const pool of treePools()) {
    const tree = (state as Partial<Record<string, unknown>>)[pool];
    if (typeof tree === 'string') trees[pool] = tree;
    // A pool after zcashd's may be left out: a checkpoint before its upgrade has nothing in it.
    else if (tree === undefined && pool !== 'sprout' && shieldedPool(pool)?.listing === 'extension') continue;
    else throw new ImportError(`checkpoint: state.${pool} must be a tree state in hex (z_gettreestate's finalState)`);
  }
  const totals: Partial<PoolTotals> = {};
  for (const [pool, v] of Object.entries(state.totals ?? {})) {
    if (!totalIds().includes(pool as keyof PoolTotals))
      throw new ImportError(`checkpoint: state.totals has no pool ${JSON.stringify(pool)}`);
    if (v !== null && typeof v !== 'string') throw new ImportError(`checkpoint: the ${pool} total must be a string of zatoshis or null`);
    totals[pool as keyof PoolTotals] = v === null ? null : bigintOf(v, `${pool} total`);
  }
  return {
    height: json.height,
    headers: json.headers.map((h, i) => hexBytes(h, `header ${i}`)),
    chainWork: bigintOf(json.chainWork, 'chainWork'),
    chainTx: json.chainTx ?? null,
    state: { ...(trees as Record<ShieldedPool, string>), history: 'unknown', totals },
  };
}

/**
 * A checkpoint file holds about 30 headers and three tree states, well under 1 MB; the ceiling
 * keeps a wrong path (`/dev/zero`, a block file) from reading until memory runs out.
 */
const CHECKPOINT_FILE_LIMIT = { maxBytes: 16 * 1024 * 1024, why: 'too large for a checkpoint file' };

export async function readCheckpointFile(path: string): Promise<CheckpointStart> {
  let json: CheckpointFile;
  try {
    json = JSON.parse(readTextBounded(path, CHECKPOINT_FILE_LIMIT)) as CheckpointFile;
  } catch (e) {
    throw new ImportError(`cannot read checkpoint file ${path}: ${(e as Error).message}`);
  }
  return checkpointFromJson(json);
}

interface TreeStateReply {
  commitments?: { finalRoot?: string; finalState?: string };
}

/** A pool as zcashd's and Zebra's `getblock … 1` list it in `valuePools`. */
interface ValuePoolReply {
  id: string;
  monitored: boolean;
  chainValueZat?: number;
}

export interface FetchCheckpointOptions {
  /** Headers to fetch, ending with the checkpoint's (default: the 28 the difficulty rules look back over). */
  headers?: number;
  /** Hears, once each, what the node could not give and how the start makes up for it. */
  log?: (line: string) => void;
}

/** The checkpoint at `height` as a zcashd, zecrpc or Zebra node shows it. */
export async function fetchCheckpoint(client: JsonRpcClient, height: number, opts: FetchCheckpointOptions = {}): Promise<CheckpointStart> {
  const log = opts.log ?? (() => undefined);
  const count = Math.max(1, Math.min(opts.headers ?? NEXT_WORK_WINDOW, height + 1));
  const first = height - count + 1;
  const heights = Array.from({ length: height - first + 1 }, (_, i) => first + i);
  const hashes = await client.batch<string>(heights.map((h) => ({ method: 'getblockhash', params: [h] })));
  const headers = await client.batch<string>(hashes.map((hash) => ({ method: 'getblockheader', params: [hash, false] })));
  headers.forEach((header, i) => {
    const bytes = typeof header === 'string' ? hexToBytesStrict(header) : null;
    const got = bytes && bytes.length >= 140 ? toHexReversed(sha256d(bytes)) : null;
    if (got !== hashes[i]) {
      throw new ImportError(
        `${client.displayUrl}: getblockheader ${hashes[i]} false returned ${got ? `the header of ${got}` : 'no header'}`,
      );
    }
  });
  const block = await client.call<{ chainwork?: string; valuePools?: ValuePoolReply[] }>('getblock', [hashes[hashes.length - 1], 1]);
  let chainWork = block.chainwork;
  if (typeof chainWork !== 'string') {
    // Zebra does not track chain work (its getblockchaininfo says 0, its getblock has none): the
    // work of the headers given is all this store will count, as nChainTx counts from 0.
    chainWork = headers.reduce((sum, h) => sum + blockWork(decodeBlockHeader(hexBytes(h, 'header')).bits), 0n).toString();
    log(
      `checkpoint: ${client.displayUrl} reports no chain work for block ${height}; chain work counts from height ${first} ` +
        `(getblock's and getblockheader's chainwork show the work from there on)`,
    );
  }
  const trees = await client.call<Partial<Record<ShieldedPool, TreeStateReply>>>('z_gettreestate', [String(height)]);
  const frontier = (pool: ShieldedPool): string => {
    const reply = trees[pool];
    const state = reply?.commitments?.finalState;
    if (state !== undefined) return state;
    if (pool === 'sprout' && reply === undefined && trees.sapling !== undefined) {
      // Zebra keeps no Sprout tree and leaves the member out. Sprout anchors before the checkpoint
      // are then reported unverified, as every anchor before a checkpoint is.
      log(
        `checkpoint: ${client.displayUrl} gives no Sprout tree state at height ${height}; the Sprout tree starts empty ` +
          `(z_gettreestate's sprout member and getblockchaininfo's commitments count from the checkpoint)`,
      );
      return '000000';
    }
    // No such pool on the network, or one not active yet (its root was never set): the empty tree.
    if (reply === undefined || /^0*$/.test(reply.commitments?.finalRoot ?? '')) return '000000';
    throw new ImportError(`${client.displayUrl} has no ${pool} tree state at height ${height} (z_gettreestate shows only a skipHash)`);
  };
  // zcashd prints chainValueZat only for a pool it monitors; Zebra prints it for every pool (its
  // `monitored` only says the value is not zero), so a value given is a value known.
  const totals: Partial<PoolTotals> = {};
  for (const pool of block.valuePools ?? []) {
    const id = pool.id as keyof PoolTotals;
    if (id !== 'transparent' && (valuePoolIds() as string[]).includes(id)) {
      totals[id] = typeof pool.chainValueZat === 'number' ? BigInt(pool.chainValueZat) : null;
    }
  }
  return checkpointFromJson({
    height,
    headers,
    chainWork,
    chainTx: null,
    state: {
      ...(Object.fromEntries(treePools().map((pool) => [pool, frontier(pool)])) as Record<ShieldedPool, string>),
      totals: Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, v === null || v === undefined ? null : v.toString()])),
    },
  });
}
