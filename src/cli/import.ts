/**
 * `zecrpc import -datadir=DIR [-testnet|-regtest] (--hex FILE|DIR… | --blocks-dir PATH | --rpc URL
 * [--rpc-user U --rpc-password P | --rpc-cookie FILE] [--follow]) [--progress=auto|bar|log|silent]`
 *
 * Single-dash options are zcashd's (datadir, network, conf file) and go to loadNodeConfig; the
 * double-dash options choose the source. Every import is resumable: run it again after a crash or
 * Ctrl-C and it continues where the store stands.
 */
import { Command, Option } from 'commander';
import { genesisBlock } from '../chain/genesis.js';
import { applyZcashdUmask, assertDatadirExists, ConfigError, loadNodeConfig, parseZcashArgs } from '../config.js';
import { toHexReversed } from '../codec/hex.js';
import { importBlkFiles } from '../sync/blk.js';
import type { ImportResult } from '../sync/hex.js';
import { importHex } from '../sync/hex.js';
import { stderrLogger, type ProgressMode } from '../sync/progress.js';
import { followUpstream, importFromUpstream, type UpstreamFollower } from '../sync/upstream.js';
import { checkOptions, isHelpFlag, isVersionFlag } from './options.js';
import { fetchCheckpoint, readCheckpointFile } from '../sync/checkpoint.js';
import { JsonRpcClient } from '../sync/rpc-client.js';
import { SolutionPrefetcher } from '../sync/solution-prefetch.js';
import { TreePrefetcher } from '../sync/tree-prefetch.js';
import { usableCores } from '../workers/usable-cores.js';
import { onStopRequests } from './stop-signals.js';
import { openStoreOrExplain } from './store-open.js';
import { importUsage } from './usage.js';
import { versionLine } from './version.js';

interface ImportCliOptions {
  hex?: string[];
  blocksDir?: string;
  rpc?: string;
  rpcUser?: string;
  rpcPassword?: string;
  rpcCookie?: string;
  follow?: boolean;
  progress: ProgressMode;
  durable?: boolean;
  /** commander's negation of --no-verify-equihash. */
  verifyEquihash: boolean;
  checkpoint?: string;
  checkpointHeight?: string;
}

/** Splits zcashd-style `-name[=value]` options from our `--name [values…]` ones. */
export function splitImportArgv(argv: readonly string[]): { node: string[]; own: string[] } {
  const node: string[] = [];
  const own: string[] = [];
  let inOwn = false;
  for (const a of argv) {
    if (a.startsWith('--')) inOwn = true;
    else if (a.startsWith('-') && a.length > 1) inOwn = false;
    (inOwn ? own : node).push(a);
  }
  return { node, own };
}

/** The `--long` source options of `zecrpc import` (its zcashd-style ones are checked by checkOptions). */
export function importCommand(): Command {
  return new Command('import')
    .description('import blocks into the zecrpc chain store')
    .option('--hex <paths...>', 'files or directories of hex blocks (one per file or one per line)')
    .option('--blocks-dir <path>', "zcashd's blocks directory (blk?????.dat), or its data directory")
    .option('--rpc <url>', 'upstream zcashd JSON-RPC URL')
    .option('--rpc-user <user>', 'upstream RPC user')
    .option('--rpc-password <password>', 'upstream RPC password')
    .option('--rpc-cookie <file>', "upstream zcashd's .cookie file")
    .option('--follow', 'with --rpc: keep following the upstream tip until interrupted')
    .addOption(new Option('--progress <mode>', 'progress display').choices(['auto', 'bar', 'log', 'silent']).default('auto'))
    .option('--durable', 'fsync every block (power-loss safe, slower)')
    .option(
      '--checkpoint <file|url>',
      'start an empty store at a checkpoint instead of genesis: a JSON checkpoint file, or a node URL (with --checkpoint-height)',
    )
    .option('--checkpoint-height <height>', 'with --checkpoint URL: the height the node is asked about')
    .option(
      '--no-verify-equihash',
      "skip Equihash solution checks (~0.1 ms a header) for a source you trust, e.g. your own zcashd's blk files; every other check still runs",
    )
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
}

export async function runImport(argv: string[]): Promise<void> {
  if (argv.some(isHelpFlag)) {
    process.stdout.write(importUsage());
    return;
  }
  if (argv.some(isVersionFlag)) {
    process.stdout.write(`${versionLine('zecrpc')}\n`);
    return;
  }
  const { node, own } = splitImportArgv(argv);
  const zcashdStyle = parseZcashArgs(node);
  if (zcashdStyle.rest.length > 0) {
    throw new ConfigError(
      `Error: zecrpc import: unexpected argument '${zcashdStyle.rest[0]}' (sources are given with --hex, --blocks-dir or --rpc). See 'zecrpc import -help'.`,
    );
  }
  checkOptions(zcashdStyle.options, 'import');
  const cmd = importCommand();
  try {
    cmd.parse(own, { from: 'user' });
  } catch (e) {
    throw new Error(`import: ${(e as Error).message.replace(/^error: /, '')}`);
  }
  const opts = cmd.opts<ImportCliOptions>();
  const sources = [opts.hex, opts.blocksDir, opts.rpc].filter((s) => s !== undefined).length;
  if (sources !== 1) throw new Error('import: give exactly one source: --hex FILE|DIR…, --blocks-dir PATH or --rpc URL');
  if (opts.checkpointHeight !== undefined && !opts.checkpoint) throw new Error('import: --checkpoint-height goes with --checkpoint URL');
  if (opts.follow && !opts.rpc) throw new Error('import: --follow needs --rpc URL');
  if (opts.rpcCookie && (opts.rpcUser || opts.rpcPassword)) throw new Error('import: use either --rpc-cookie or --rpc-user/--rpc-password');

  assertDatadirExists(node);
  const config = loadNodeConfig(node);
  applyZcashdUmask(config);
  const store = await openStoreOrExplain(config, {
    durable: opts.durable,
    verifySolutions: opts.verifyEquihash,
    log: (line) => process.stderr.write(`${line}\n`),
    groupCommit: true,
    writes: true,
  });
  // The other cores (within a container's CPU quota) check the solutions of blocks read ahead;
  // this one validates and connects.
  const solutions = store.verifiesSolutions
    ? new SolutionPrefetcher(config.network, Math.max(1, Math.min(4, usableCores() - 1)))
    : undefined;
  // SIGINT or SIGTERM ends the import between blocks, and what was stored is written out; a
  // second one ends the process at once (what a pending group holds is then lost, as with kill -9).
  const stop = new AbortController();
  const stopRequests = onStopRequests((requests, signal) => {
    if (requests > 1) {
      // As the signal's own action would have: its listeners removed, it is raised again.
      stopRequests();
      process.kill(process.pid, signal);
      return;
    }
    process.stderr.write('stopping: writing out the blocks imported so far (again to quit at once)\n');
    stop.abort();
  });
  let trees: TreePrefetcher | undefined;
  try {
    // A fresh store holds its network's genesis block, as zcashd and `zecrpc serve` do, so blocks
    // from height 1 on import by themselves; a checkpoint start needs the store empty.
    if (!opts.checkpoint && (await store.tip()) === null) await store.addBlock(genesisBlock(config.network.name));
    if (opts.checkpoint) {
      const cp = /^https?:\/\//.test(opts.checkpoint)
        ? await fetchCheckpoint(
            await JsonRpcClient.create(opts.checkpoint, { user: opts.rpcUser, password: opts.rpcPassword, cookieFile: opts.rpcCookie }),
            checkpointHeightArg(opts.checkpointHeight),
            { log: (line) => process.stderr.write(`${line}\n`) },
          )
        : await readCheckpointFile(opts.checkpoint);
      await store.startFromCheckpoint(cp);
      process.stderr.write(`started the store at checkpoint height ${cp.height}\n`);
    }
    // With a second core, the blocks read ahead have their note-commitment trees stepped on a
    // thread from the tip on (the other threads check solutions and run LevelDB's compactions);
    // the hex importer reads no block ahead.
    if (usableCores() >= 2 && !opts.hex) trees = await TreePrefetcher.start(store);
    const common = { progress: opts.progress, logger: stderrLogger, signal: stop.signal, solutions, trees };
    let result: ImportResult;
    if (opts.hex) result = await importHex(store, opts.hex, common);
    else if (opts.blocksDir) result = await importBlkFiles(store, opts.blocksDir, common);
    else {
      const rpcOpts = { ...common, user: opts.rpcUser, password: opts.rpcPassword, cookieFile: opts.rpcCookie };
      if (opts.follow) {
        const startedAt = Date.now();
        const startTip = await store.tip();
        const follower = await followUpstream(store, opts.rpc!, rpcOpts);
        if (!stop.signal.aborted) await new Promise((resolve) => stop.signal.addEventListener('abort', resolve, { once: true }));
        await follower.stop();
        process.stdout.write(followSummary(follower, startTip?.height ?? null, await store.tip(), (Date.now() - startedAt) / 1000) + '\n');
        return;
      }
      result = await importFromUpstream(store, opts.rpc!, rpcOpts);
    }
    const tip = await store.tip();
    const mbps = result.seconds > 0 ? result.bytes / 1048576 / result.seconds : 0;
    process.stdout.write(
      `imported ${result.added} blocks (${result.duplicates} already stored, ${result.sideChain} side-chain, ` +
        `${result.reorganizations} reorganizations) in ${result.seconds.toFixed(1)} s, ${mbps.toFixed(2)} MB/s; ` +
        `tip ${tip ? `${tip.height} ${toHexReversed(tip.hash)}` : 'none'}\n`,
    );
  } finally {
    stopRequests();
    try {
      await store.close();
    } finally {
      await Promise.all([solutions?.close(), trees?.close()]);
    }
  }
}

/** What `import --follow` did, printed when it stops: an operator sees where it left the store. */
export function followSummary(
  follower: Pick<UpstreamFollower, 'added' | 'reorganizations' | 'passes' | 'upstreamHeight' | 'lastError'>,
  startHeight: number | null,
  tip: { height: number; hash: Uint8Array } | null,
  seconds: number,
): string {
  const lag = tip && follower.upstreamHeight !== null ? `, ${Math.max(0, follower.upstreamHeight - tip.height)} behind` : '';
  return (
    `followed for ${seconds.toFixed(1)} s (${follower.passes} polls): stored ${follower.added} blocks` +
    (follower.reorganizations ? ` (${follower.reorganizations} reorganizations)` : '') +
    `; tip ${startHeight ?? 'none'} → ${tip ? `${tip.height} ${toHexReversed(tip.hash)}` : 'none'}` +
    `; upstream height ${follower.upstreamHeight ?? 'never read'}${lag}` +
    (follower.lastError ? `; last error: ${follower.lastError.message}` : '')
  );
}

function checkpointHeightArg(text: string | undefined): number {
  const height = text === undefined ? NaN : Number(text);
  if (!Number.isInteger(height) || height < 0)
    throw new Error('import: --checkpoint URL needs --checkpoint-height N (a non-negative integer)');
  return height;
}
