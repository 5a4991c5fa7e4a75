/**
 * `zecrpc compare`: sends the same requests to a reference node (zcashd or zebrad) and to zecrpc
 * (a running server, or a chain store opened in this process) and reports every difference.
 * Exit status: 0 no difference, 1 differences, 2 the comparison could not be made.
 */
import { COMPAT_PROFILES, compatProfileNamed, DEFAULT_COMPAT_PROFILE, type CompatProfile } from '../compat/profiles.js';
import { Command, Option } from 'commander';
import { NETWORK_NAMES, type NetworkName, type NetworkParams } from '../chain/network.js';
import { HttpEndpoint, InProcessEndpoint, type Endpoint } from '../compare/endpoint.js';
import { CompareError } from '../compare/errors.js';
import { parseHeightRange, type HeightSelection } from '../compare/heights.js';
import { DEFAULT_METHODS, parseMethodSelection } from '../compare/methods.js';
import { createCompareProgress, type CompareProgressMode } from '../compare/progress.js';
import { formatJson, formatReport } from '../compare/report.js';
import { runCompare } from '../compare/run.js';
import { ConfigError, nodeNetwork } from '../config.js';
import { isHelpFlag } from './options.js';
import type { ReferenceKind } from '../compare/compare-reply.js';

interface CompareCliOptions {
  reference: string;
  referenceUser?: string;
  referencePassword?: string;
  referenceCookie?: string;
  referenceConf?: string;
  referenceKind: ReferenceKind | 'auto';
  target?: string;
  targetUser?: string;
  targetPassword?: string;
  targetCookie?: string;
  targetConf?: string;
  targetDatadir?: string;
  network: NetworkName;
  nuparams: string[];
  heights?: string;
  sample?: string;
  seed: string;
  methods: string;
  exclude: string[];
  compat: string;
  concurrency: string;
  timeout: string;
  maxReported: string;
  json?: boolean;
  progress: 'auto' | 'bar' | 'log' | 'silent';
}

export interface CompareIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WriteStream;
}

function positiveInt(text: string, name: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new CompareError(`${name}: '${text}' is not a positive integer`);
  return Number(text);
}

function heightSelection(o: CompareCliOptions): HeightSelection {
  if (o.heights !== undefined && o.sample !== undefined) throw new CompareError('give --heights or --sample, not both');
  if (o.heights !== undefined) return parseHeightRange(o.heights);
  return { kind: 'sample', count: positiveInt(o.sample ?? '100', '--sample'), seed: Number(o.seed) >>> 0 };
}

async function openEndpoints(o: CompareCliOptions): Promise<{ reference: Endpoint; target: Endpoint }> {
  if ((o.target === undefined) === (o.targetDatadir === undefined)) {
    throw new CompareError('give the zecrpc to compare: --target URL (a running server) or --target-datadir DIR (its store, opened here)');
  }
  checkNuparamsTarget(o);
  const inProcess = o.targetDatadir !== undefined ? { datadir: o.targetDatadir, network: targetNetwork(o) } : null;
  const timeoutMs = positiveInt(o.timeout, '--timeout');
  const maxSockets = positiveInt(o.concurrency, '--concurrency');
  const reference = new HttpEndpoint('reference', o.reference, {
    timeoutMs,
    maxSockets,
    user: o.referenceUser,
    password: o.referencePassword,
    cookieFile: o.referenceCookie,
    confFile: o.referenceConf,
  });
  const target =
    inProcess === null
      ? new HttpEndpoint('target', o.target!, {
          timeoutMs,
          maxSockets,
          user: o.targetUser,
          password: o.targetPassword,
          cookieFile: o.targetCookie,
          confFile: o.targetConf,
        })
      : await InProcessEndpoint.open('target', inProcess.datadir, inProcess.network, profileOf(o));
  return { reference, target };
}

/**
 * The network `--target-datadir`'s store is served under, derived as `zecrpc serve` derives it
 * from the same options (`-regtest`, `-nuparams`, `-compat`), with serve's messages (zcashd's
 * words, without serve's "Error: " lead: the line already names the command).
 */
function targetNetwork(o: CompareCliOptions): NetworkParams {
  try {
    return nodeNetwork({ name: o.network, nuparams: o.nuparams, compat: profileOf(o) });
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    throw new CompareError(e.message.replace(/^Error: /, ''));
  }
}

/** `--nuparams` schedules the store compare opens itself: a running `--target` has its own. */
function checkNuparamsTarget(o: CompareCliOptions): void {
  if (o.nuparams.length > 0 && o.target !== undefined) {
    throw new CompareError("--nuparams is for --target-datadir's store; a running --target is served with its own -nuparams");
  }
}

/** `--compat`, already one of the choices commander allows. */
function profileOf(o: CompareCliOptions): CompatProfile {
  return compatProfileNamed(o.compat) ?? DEFAULT_COMPAT_PROFILE;
}

/** import's `silent` is the display's `none`; JSON on stdout wants no log lines unless asked for. */
function progressMode(o: CompareCliOptions): CompareProgressMode {
  if (o.progress === 'silent' || (o.json && o.progress === 'auto')) return 'none';
  return o.progress;
}

async function execute(o: CompareCliOptions, io: CompareIo): Promise<number> {
  const methods = parseMethodSelection(o.methods);
  const heights = heightSelection(o);
  const { reference, target } = await openEndpoints(o);
  try {
    const result = await runCompare({
      reference,
      target,
      referenceKind: o.referenceKind,
      heights,
      methods,
      concurrency: positiveInt(o.concurrency, '--concurrency'),
      profile: profileOf(o),
      exclude: o.exclude
        .flatMap((e) => e.split(','))
        .map((e) => e.trim())
        .filter((e) => e !== ''),
      maxReported: positiveInt(o.maxReported, '--max-reported'),
      progress: createCompareProgress(progressMode(o), io.stderr),
      onWarning: (w) => io.stderr.write(`zecrpc compare: warning: ${w}\n`),
    });
    io.stdout.write(o.json ? formatJson(result) : formatReport(result));
    return result.ok ? 0 : 1;
  } finally {
    await Promise.all([reference.close(), target.close()]);
  }
}

export function compareCommand(
  io: CompareIo = { stdout: process.stdout, stderr: process.stderr },
  onExit: (code: number) => void = (c) => void (process.exitCode = c),
): Command {
  return new Command('compare')
    .description(
      'compare the replies of a reference zcashd/zebrad with zecrpc, byte for byte (exit 0 identical, 1 different, 2 could not compare)',
    )
    .requiredOption('--reference <url>', 'the reference node (zcashd or zebrad), e.g. http://127.0.0.1:8232/ (user:password@ allowed)')
    .option('--reference-user <user>', 'RPC user of the reference')
    .option('--reference-password <password>', 'RPC password of the reference')
    .option('--reference-cookie <file>', "the reference's .cookie file")
    .option('--reference-conf <file>', "the reference's zcash.conf (rpcuser/rpcpassword, or the .cookie beside it)")
    .addOption(
      new Option('--reference-kind <kind>', 'what the reference is (auto: asks its getnetworkinfo)')
        .choices(['auto', 'zcashd', 'zebrad', 'zecrpc', 'unknown'])
        .default('auto'),
    )
    .option('--target <url>', 'a running zecrpc')
    .option('--target-user <user>', 'RPC user of the target')
    .option('--target-password <password>', 'RPC password of the target')
    .option('--target-cookie <file>', "the target's .cookie file")
    .option('--target-conf <file>', "the target's zcash.conf")
    .option(
      '--target-datadir <dir>',
      'compare against the zecrpc store in this data directory, opened in this process (no server may have it open)',
    )
    .addOption(new Option('--network <name>', 'network of --target-datadir').choices([...NETWORK_NAMES]).default('mainnet'))
    .addOption(
      new Option(
        '--nuparams <hexBranchId:height>',
        "regtest's upgrade schedule of --target-datadir, as serve's -nuparams (an upgrade's activation height; earlier ones left unset activate with it); repeatable",
      )
        .argParser((value: string, previous: string[]) => [...previous, value])
        .default([]),
    )
    .option('--heights <A..B>', 'visit heights A to B')
    .option('--sample <n>', 'visit n random heights (default 100)')
    .option('--seed <n>', 'random seed of --sample', '1')
    .option('--methods <list>', 'methods and variants to compare', DEFAULT_METHODS)
    .option('--exclude <names...>', 'known deviations to accept, by name (e.g. getblock-numeric-height)', [])
    .addOption(
      new Option('--compat <profile>', "the target's compatibility profile (its -compat): which deviations are known")
        .choices(COMPAT_PROFILES.map((p) => p.name))
        .default(DEFAULT_COMPAT_PROFILE.name),
    )
    .option('--concurrency <n>', 'requests in flight (each to both sides)', '8')
    .option('--timeout <ms>', 'time limit of each request', '30000')
    .option('--max-reported <n>', 'differing replies shown in detail', '50')
    .option('--json', 'print the result as JSON')
    .addOption(
      new Option('--progress <mode>', 'progress on stderr, as for import (none: the same as silent)')
        .choices(['auto', 'bar', 'log', 'silent'])
        .default('auto'),
    )
    .action(async (o: CompareCliOptions) => {
      try {
        onExit(await execute(o, io));
      } catch (e) {
        if (!(e instanceof CompareError)) throw e;
        io.stderr.write(`zecrpc compare: ${e.message}\n`);
        onExit(2);
      }
    });
}

/**
 * The command line as commander reads it: zcashd-style `-name=value` and `-name` (as every other
 * command takes them; `-referenceuser` or `-reference-user`) become `--reference-user=value`;
 * `--name value` and `--name=value` pass as they are; `--progress none`, this command's former
 * spelling of import's `silent`, becomes `silent`.
 */
export function normalizeCompareArgs(argv: readonly string[]): string[] {
  const longs = new Map<string, string>();
  for (const o of compareCommand().options) {
    if (!o.long) continue;
    const bare = o.long.slice(2);
    longs.set(bare, o.long);
    longs.set(bare.replace(/-/g, ''), o.long);
  }
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i]!;
    const zcashdStyle = /^-([A-Za-z][A-Za-z0-9-]*)(=.*)?$/s.exec(a);
    if (zcashdStyle && !isHelpFlag(a)) {
      const long = longs.get(zcashdStyle[1]!.toLowerCase());
      if (!long) throw new CompareError(`zecrpc compare does not take -${zcashdStyle[1]!} (unknown option). See 'zecrpc compare -help'.`);
      a = long + (zcashdStyle[2] ?? '');
    } else if (isHelpFlag(a)) a = '--help';
    if (a === '--progress=none') a = '--progress=silent';
    out.push(a);
    if (a === '--progress' && argv[i + 1] === 'none') {
      out.push('silent');
      i++;
    }
  }
  return out;
}

/** Runs `zecrpc compare <argv…>`; resolves with the exit status. */
export async function runCompareCommand(argv: readonly string[], io?: CompareIo): Promise<number> {
  let code = 0;
  const cmd = compareCommand(io, (c) => (code = c));
  cmd.exitOverride();
  if (io) cmd.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  let args: string[];
  try {
    args = normalizeCompareArgs(argv);
  } catch (e) {
    if (!(e instanceof CompareError)) throw e;
    (io?.stderr ?? process.stderr).write(`${e.message}\n`);
    return 2;
  }
  try {
    await cmd.parseAsync(args, { from: 'user' });
  } catch (e) {
    const err = e as { code?: string; exitCode?: number };
    if (typeof err.code === 'string' && err.code.startsWith('commander.')) return err.exitCode === 0 ? 0 : 2;
    throw e;
  }
  return code;
}
