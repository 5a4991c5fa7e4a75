/**
 * Feeds blocks from an importer into the store. Blocks whose parent has not arrived yet (zcashd
 * writes blk files in download order, hex dumps may be unsorted) are held in memory until the
 * parent is stored; every other rejection becomes an ImportError naming where the block came from.
 */
import { toHexReversed } from '../codec/hex.js';
import type { AddResult, ChainStore, SolutionVerdicts } from '../store/chain.js';
import { BlockRejectedError, UnknownParentError } from '../store/errors.js';
import { networkOptions, otherNetworkOf } from './block-network.js';
import type { TreePrefetcher } from './tree-prefetch.js';

/** Where an imported block came from: a file and its line or offset, or an upstream URL and height. */
export interface BlockOrigin {
  /** File path or upstream URL. */
  source: string;
  /** Where in the source: "line 3", "offset 1234", "height 17". */
  position: string;
  /** Numeric position for resume checkpoints (byte offset, line number). */
  offset: number;
}

/** A block an import could not store, with where it came from. */
export class ImportError extends Error {
  constructor(
    message: string,
    readonly origin: BlockOrigin | null = null,
  ) {
    super(message);
    this.name = 'ImportError';
  }
}

export const describeOrigin = (o: BlockOrigin): string => `${o.source} (${o.position})`;

/** What an import has done so far. */
export interface ImportStats {
  added: number;
  duplicates: number;
  sideChain: number;
  reorganizations: number;
  bytes: number;
}

interface Waiting {
  bytes: Uint8Array;
  hash: Uint8Array;
  origin: BlockOrigin;
}

export interface BlockSinkOptions {
  /** Most bytes of parentless blocks held at once (zcashd keeps blk files roughly ordered). */
  maxBufferedBytes?: number;
  onResult?: (r: AddResult, origin: BlockOrigin) => void;
  /** Equihash verdicts the importer computed ahead, handed to the store with each block. */
  solutions?: SolutionVerdicts;
  /** Note-commitment tree steps the importer computed ahead, handed to the store with each block. */
  trees?: TreePrefetcher;
}

/**
 * What holding a block costs beyond its bytes (its objects, the index entries, the allocator's
 * share), counted against `maxBufferedBytes` so that many small blocks cannot outgrow it: 200,000
 * waiting blocks of 270 bytes were measured at ≈ 2 kB each.
 */
const WAITING_OVERHEAD_BYTES = 2048;

/** Feeds importers' blocks to the store, holding back blocks whose parent has not arrived yet. */
export class BlockSink {
  readonly stats: ImportStats = { added: 0, duplicates: 0, sideChain: 0, reorganizations: 0, bytes: 0 };
  private readonly waiting = new Map<string, Waiting[]>();
  /** Hashes of the blocks in `waiting`: a block read twice is held once, without a scan. */
  private readonly waitingHashes = new Set<string>();
  private bufferedBytes = 0;
  private bufferedCount = 0;
  private readonly maxBufferedBytes: number;

  constructor(
    private readonly store: ChainStore,
    private readonly opts: BlockSinkOptions = {},
  ) {
    this.maxBufferedBytes = opts.maxBufferedBytes ?? 512 * 1024 * 1024;
  }

  /** Stores the block (and any buffered descendants), or buffers it until its parent arrives. */
  async add(bytes: Uint8Array, origin: BlockOrigin): Promise<'stored' | 'buffered'> {
    const stack: Waiting[] = [];
    try {
      await this.store1(bytes, origin, stack);
    } catch (e) {
      if (e instanceof UnknownParentError) {
        this.buffer({ bytes, hash: e.blockHash!, origin }, e.prevHash);
        return 'buffered';
      }
      throw e;
    }
    // Children waiting for blocks just stored, depth first.
    while (stack.length) {
      const w = stack.pop()!;
      await this.store1(w.bytes, w.origin, stack);
    }
    return 'stored';
  }

  private async store1(bytes: Uint8Array, origin: BlockOrigin, stack: Waiting[]): Promise<void> {
    let r: AddResult;
    try {
      r = await this.store.addBlock(bytes, { solutions: this.opts.solutions, trees: this.opts.trees });
      await this.opts.trees?.seedAfterGap(this.store);
    } catch (e) {
      if (e instanceof UnknownParentError) throw e;
      if (e instanceof BlockRejectedError) throw new ImportError(`${describeOrigin(origin)}: ${e.message}`, origin);
      throw e;
    }
    if (r.status === 'duplicate') this.stats.duplicates++;
    else {
      this.stats.added++;
      this.stats.bytes += bytes.length;
      if (r.status === 'side-chain') this.stats.sideChain++;
      if (r.status === 'reorganized') this.stats.reorganizations++;
    }
    this.opts.onResult?.(r, origin);
    const key = toHexReversed(r.hash);
    const children = this.waiting.get(key);
    if (children) {
      this.waiting.delete(key);
      for (const c of children) {
        this.bufferedBytes -= c.bytes.length + WAITING_OVERHEAD_BYTES;
        this.bufferedCount--;
        this.waitingHashes.delete(toHexReversed(c.hash));
      }
      stack.push(...children);
    }
  }

  private buffer(w: Waiting, prevHash: Uint8Array): void {
    const hash = toHexReversed(w.hash);
    if (this.waitingHashes.has(hash)) return;
    this.waitingHashes.add(hash);
    const key = toHexReversed(prevHash);
    const list = this.waiting.get(key) ?? [];
    list.push(w);
    this.waiting.set(key, list);
    this.bufferedBytes += w.bytes.length + WAITING_OVERHEAD_BYTES;
    this.bufferedCount++;
    if (this.bufferedBytes > this.maxBufferedBytes) {
      throw new ImportError(
        `${describeOrigin(w.origin)}: ${this.bufferedCount} blocks (${(this.bufferedBytes / 1048576).toFixed(0)} MB) are waiting for ` +
          `parents that have not appeared; the input is not a chain from genesis (first missing parent: ${this.firstMissing()}).` +
          this.missingParentAdvice([w]),
        w.origin,
      );
    }
  }

  private firstMissing(): string {
    return this.waiting.keys().next().value ?? 'none';
  }

  /** Blocks still waiting for a parent. */
  unresolved(): { hash: string; parent: string; origin: BlockOrigin }[] {
    const out: { hash: string; parent: string; origin: BlockOrigin }[] = [];
    for (const [parent, list] of this.waiting) for (const w of list) out.push({ hash: toHexReversed(w.hash), parent, origin: w.origin });
    return out.sort((a, b) => a.origin.offset - b.origin.offset);
  }

  /** Smallest offset among buffered blocks of `source` (resume must restart there), or null. */
  earliestBuffered(source: string): number | null {
    let min: number | null = null;
    for (const list of this.waiting.values()) {
      for (const w of list) if (w.origin.source === source && (min === null || w.origin.offset < min)) min = w.origin.offset;
    }
    return min;
  }

  get bufferedBlocks(): number {
    return this.bufferedCount;
  }

  /** Throws if blocks are left without a parent at the end of an import. */
  assertNoneUnresolved(): void {
    const left = this.unresolved();
    if (left.length === 0) return;
    const shown = left
      .slice(0, 5)
      .map((u) => `${u.hash} from ${describeOrigin(u.origin)} needs parent ${u.parent}`)
      .join('; ');
    throw new ImportError(
      `${left.length} block(s) could not be stored because their parent never appeared (everything else was stored): ${shown}` +
        (left.length > 5 ? `; … ${left.length - 5} more` : '') +
        '.' +
        this.missingParentAdvice([...this.waiting.values()].flat()),
      left[0]!.origin,
    );
  }

  /**
   * What to do about blocks whose parent is missing: a block of another network is named as such
   * (its parent is not missing, it is on another chain); otherwise, the checkpoint start, which
   * imports a chain without its ancestors.
   */
  private missingParentAdvice(blocks: readonly Waiting[]): string {
    const network = this.store.network.name;
    for (const w of blocks) {
      const other = otherNetworkOf(w.bytes, this.store.network);
      if (other) {
        return (
          ` ${toHexReversed(w.hash)} is a ${other.networks.join(' or ')} block (${other.evidence}) and this store is ${network}'s: ` +
          `import it with ${networkOptions(other.networks)}.`
        );
      }
    }
    return (
      ' Blocks import onto their parent: import the missing blocks first, or start an empty store at a checkpoint ' +
      'with `zecrpc import --checkpoint FILE|URL` (docs/operating.md, "Importing"; its file format: README.md, "Starting at a checkpoint").'
    );
  }
}
