/**
 * Imports blocks from hex text: a file holding one block (`getblock <h> 0` output) or one block per
 * line, or a directory of such files (its *.hex files if any, else all; natural name order: 2.hex
 * before 10.hex). Re-running
 * is harmless: stored blocks are recognised by hash before any full decode.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { ChainStore } from '../store/chain.js';
import { BlockSink, ImportError, type ImportStats } from './block-sink.js';
import { ImportProgress, type ImportLogger, type ProgressMode } from './progress.js';

export interface ImportOptions {
  progress?: ProgressMode;
  logger?: ImportLogger;
  maxBufferedBytes?: number;
}

export interface ImportResult extends ImportStats {
  tipHeight: number;
  seconds: number;
}

const HEX_LINE = /^[0-9a-fA-F]*$/;

/** Expands directories (recursively) into their files, in natural name order. */
export async function listHexFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const collator = new Intl.Collator('en', { numeric: true });
  for (const p of paths) {
    const abs = resolve(p);
    const st = await stat(abs).catch(() => {
      throw new ImportError(`${abs}: no such file or directory`);
    });
    if (st.isDirectory()) {
      // A directory's *.hex files if it has any (so a README or manifest beside them is skipped),
      // otherwise every visible file (lightwalletd-style extensionless block files).
      const visible = (await readdir(abs)).filter((n) => !n.startsWith('.')).sort(collator.compare);
      const hex = visible.filter((n) => n.endsWith('.hex'));
      out.push(...(await listHexFiles((hex.length ? hex : visible).map((n) => join(abs, n)))));
    } else {
      out.push(abs);
    }
  }
  return out;
}

export async function importHex(store: ChainStore, paths: readonly string[], opts: ImportOptions = {}): Promise<ImportResult> {
  const started = Date.now();
  const files = await listHexFiles(paths);
  if (files.length === 0) throw new ImportError(`no files to import in ${paths.join(', ')}`);
  let total = 0;
  for (const f of files) total += (await stat(f)).size;
  const progress = new ImportProgress({ label: 'import hex', unit: 'bytes', total, mode: opts.progress, logger: opts.logger });
  const sink = new BlockSink(store, { maxBufferedBytes: opts.maxBufferedBytes });
  try {
    for (const file of files) {
      const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
      let lineNo = 0;
      for await (const raw of lines) {
        lineNo++;
        const line = raw.trim();
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
    sink.assertNoneUnresolved();
  } finally {
    progress.stop();
  }
  return { ...sink.stats, tipHeight: (await store.tip())?.height ?? -1, seconds: (Date.now() - started) / 1000 };
}
