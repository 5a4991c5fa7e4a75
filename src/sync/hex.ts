/**
 * Imports blocks from hex text: a file holding one block (`getblock <h> 0` output) or one block per
 * line, or a directory of such files (its *.hex files if any, else all; natural name order: 2.hex
 * before 10.hex). Re-running
 * is harmless: stored blocks are recognised by hash before any full decode.
 */
import { createReadStream } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { MAX_BLOCK_SIZE, type ChainStore } from '../store/chain.js';
import { BlockSink, ImportError, type ImportStats } from './block-sink.js';
import { ImportProgress, type ImportLogger, type ProgressMode } from './progress.js';
import type { SolutionPrefetcher } from './solution-prefetch.js';
import type { TreePrefetcher } from './tree-prefetch.js';
import { specialKind, statSource } from './source-files.js';

/** How an import reports its progress and where it logs. */
export interface ImportOptions {
  progress?: ProgressMode;
  logger?: ImportLogger;
  maxBufferedBytes?: number;
  /** Stops the import between blocks (what was stored stays, and is written out). */
  signal?: AbortSignal;
  /**
   * Checks the Equihash solutions of the blocks the importer reads ahead on worker threads, and
   * hands their verdicts to the store as it adds them (without it, a store opened with
   * `solutionThreads` prefetches them itself, else each is checked as its block is added).
   */
  solutions?: SolutionPrefetcher;
  /**
   * Steps the note-commitment trees of the blocks the importer reads ahead on a thread, and hands
   * the steps to the store as it adds them (without it, each block's trees are hashed as it is
   * added). The blk-file and upstream importers read ahead; the hex one does not, and ignores it.
   */
  trees?: TreePrefetcher;
}

/** What an import stored, the tip it reached and how long it took. */
export interface ImportResult extends ImportStats {
  tipHeight: number;
  seconds: number;
}

const HEX_LINE = /^[0-9a-fA-F]*$/;

/** The longest line a block in hex can need: every byte of the largest block, and room for spaces. */
const MAX_LINE_BYTES = 2 * MAX_BLOCK_SIZE + 4096;

/**
 * A file's lines (without their `\n`), each refused once it outgrows `MAX_LINE_BYTES` instead of
 * being gathered whole: a file with no line breaks (`/dev/zero`, a huge dump) costs one line's
 * worth of memory, and read errors reach the caller.
 */
async function* fileLines(file: string): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNo = 1;
  const tooLong = () =>
    new ImportError(`${file} (line ${lineNo}): longer than any block in hex (more than ${MAX_LINE_BYTES} bytes without a line break)`, {
      source: file,
      position: `line ${lineNo}`,
      offset: lineNo,
    });
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, from)) {
      const part = chunk.subarray(from, nl);
      if (pendingBytes + part.length > MAX_LINE_BYTES) throw tooLong();
      yield pendingBytes > 0 ? Buffer.concat([...pending, part]) : part;
      pending = [];
      pendingBytes = 0;
      lineNo++;
      from = nl + 1;
    }
    const rest = chunk.subarray(from);
    if (pendingBytes + rest.length > MAX_LINE_BYTES) throw tooLong();
    if (rest.length > 0) {
      pending.push(rest);
      pendingBytes += rest.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}

/**
 * Expands directories (recursively) into their files, in natural name order. A path named on
 * its own may be a pipe (`<(zcash-cli …)`, /dev/stdin); inside a directory only regular files
 * are taken, so a FIFO there cannot stall the import before its first block, and a symbolic
 * link back to a directory being read is refused instead of expanded without end.
 */
export async function listHexFiles(paths: readonly string[], ancestors: ReadonlySet<string> = new Set()): Promise<string[]> {
  const out: string[] = [];
  const collator = new Intl.Collator('en', { numeric: true });
  for (const p of paths) {
    const abs = resolve(p);
    const st = await statSource(abs);
    if (st.isDirectory()) {
      const real = await realpath(abs);
      if (ancestors.has(real)) throw new ImportError(`${abs}: a symbolic link loop (it leads back to ${real})`);
      // A directory's *.hex files if it has any (so a README or manifest beside them is skipped),
      // otherwise every visible file (lightwalletd-style extensionless block files).
      const visible = (await readdir(abs)).filter((n) => !n.startsWith('.')).sort(collator.compare);
      const hex = visible.filter((n) => n.endsWith('.hex'));
      out.push(
        ...(await listHexFiles(
          (hex.length ? hex : visible).map((n) => join(abs, n)),
          new Set([...ancestors, real]),
        )),
      );
    } else if (ancestors.size > 0 && !st.isFile()) {
      throw new ImportError(`${abs}: ${specialKind(st)} in a directory being imported; name it on its own to read it`);
    } else {
      out.push(abs);
    }
  }
  return out;
}

/** Imports raw block hex (one block a line, or one a file) from files and directories into the store. */
export async function importHex(store: ChainStore, paths: readonly string[], opts: ImportOptions = {}): Promise<ImportResult> {
  const started = Date.now();
  const files = await listHexFiles(paths);
  if (files.length === 0) throw new ImportError(`no files to import in ${paths.join(', ')}`);
  let total = 0;
  for (const f of files) total += (await stat(f)).size;
  const progress = new ImportProgress({ label: 'import hex', unit: 'bytes', total, mode: opts.progress, logger: opts.logger });
  const sink = new BlockSink(store, { maxBufferedBytes: opts.maxBufferedBytes, solutions: opts.solutions });
  try {
    files: for (const file of files) {
      let lineNo = 0;
      for await (const raw of fileLines(file)) {
        lineNo++;
        if (opts.signal?.aborted) break files;
        const line = raw.toString('utf8').trim();
        if (line.length === 0) {
          progress.advance(raw.length + 1);
          continue;
        }
        const origin = { source: file, position: `line ${lineNo}`, offset: lineNo };
        if (line.length % 2 !== 0 || !HEX_LINE.test(line)) {
          throw new ImportError(
            `${file} (line ${lineNo}): not a block in hex (${line.length % 2 ? 'odd length' : 'non-hex character'})`,
            origin,
          );
        }
        const bytes = new Uint8Array(Buffer.from(line, 'hex'));
        await sink.add(bytes, origin);
        progress.tick(bytes.length, raw.length + 1);
      }
    }
    if (!opts.signal?.aborted) sink.assertNoneUnresolved();
  } finally {
    progress.stop();
  }
  return { ...sink.stats, tipHeight: (await store.tip())?.height ?? -1, seconds: (Date.now() - started) / 1000 };
}
