/**
 * zcashd-style configuration: `-name=value` / `-name` / `-noname` command-line options and a
 * zcash.conf-style file (`name=value` lines, `#` comments). As in zcashd, the command line wins
 * for single-valued options, while repeatable options (`-rpcauth`, `-rpcallowip`, `-rpcbind`)
 * collect values from both.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { hexInt } from './codec/hex.js';
import { ensureDirSync } from './store/dirs.js';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import {
  BRANCH_IDS,
  MAINNET,
  NETWORK_UPGRADES,
  REGTEST,
  regtestWithActivations,
  TESTNET,
  type NetworkParams,
  type NetworkUpgrade,
} from './chain/network.js';

/** A configuration problem; its message is the complete line to show the user ("Error…"). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parsed options: every value given for each name, in order (command line first). */
export type OptionMap = Map<string, string[]>;

const NAME_RE = /^[A-Za-z0-9_.-]+$/;

/** zcashd's InterpretBool: the empty value is true, otherwise atoi(value) != 0. */
export function interpretBool(value: string): boolean {
  if (value === '') return true;
  const m = /^\s*([+-]?\d+)/.exec(value);
  return m !== null && Number(m[1]) !== 0;
}

/**
 * Splits zcashd-style arguments into options and the remaining (positional or `--long`)
 * arguments. `-name` has the empty value (zcashd's GetBoolArg reads it as true); as in zcashd's
 * InterpretNegativeSetting, `-noname` means `-name=0` and `-noname=0` means `-name=1`.
 * A double dash is tolerated for zcashd options written `--name=value`.
 */
export function parseZcashArgs(argv: readonly string[]): { options: OptionMap; rest: string[] } {
  const options: OptionMap = new Map();
  const rest: string[] = [];
  for (const arg of argv) {
    const m = /^--?([^=]+)(?:=(.*))?$/s.exec(arg);
    if (!m || arg === '-' || arg === '--') {
      rest.push(arg);
      continue;
    }
    let name = m[1]!;
    let value = m[2] ?? '';
    if (!NAME_RE.test(name)) throw new ConfigError(`Error: Invalid option name in '${arg}'`);
    if (name.startsWith('no') && name.length > 2) {
      name = name.slice(2);
      value = interpretBool(value) ? '0' : '1';
    }
    const list = options.get(name) ?? [];
    list.push(value);
    options.set(name, list);
  }
  return { options, rest };
}

/** Keys zcashd v6.12.2 lets zcash.conf give more than once (ReadConfigFile's allowed_duplicates). */
const CONF_DUPLICATES_ALLOWED = new Set([
  'addnode',
  'allowdeprecated',
  'bind',
  'connect',
  'debug',
  'externalip',
  'fundingstream',
  'loadblock',
  'metricsallowip',
  'nuparams',
  'onetimelockboxdisbursement',
  'onlynet',
  'rpcallowip',
  'rpcauth',
  'rpcbind',
  'seednode',
  'uacomment',
  'whitebind',
  'whitelist',
]);

/** The characters boost's config-file parser trims around names, values and lines. */
const trimWs = (s: string): string => s.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');

/**
 * Reads a zcash.conf-style file into an option map, as zcashd v6.12.2 does (boost's config-file
 * parser, then ReadConfigFile): `#` starts a comment anywhere on a line; `name=value` lines with
 * names and values trimmed; a `[section]` line makes the following names `section.name`, which
 * zcashd then never reads (so a `[main]` or `[test]` block is accepted and has no effect); any
 * other non-empty line is an error, as is a name given twice unless zcashd allows repeating it.
 */
export function parseConfFile(text: string, path: string): OptionMap {
  const options: OptionMap = new Map();
  const seen = new Set<string>();
  let prefix = '';
  for (const raw of text.split('\n')) {
    const hash = raw.indexOf('#');
    const line = trimWs(hash >= 0 ? raw.slice(0, hash) : raw);
    if (line === '') continue;
    if (line.startsWith('[') && line.endsWith(']')) {
      prefix = line.slice(1, -1);
      if (!prefix.endsWith('.')) prefix += '.';
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0)
      throw new ConfigError(`Error reading configuration file ${path}: the options configuration file contains an invalid line '${line}'`);
    let name = prefix + trimWs(line.slice(0, eq));
    let value = trimWs(line.slice(eq + 1));
    if (name === '') throw new ConfigError(`Error reading configuration file ${path}: unrecognised option ''`);
    if (!CONF_DUPLICATES_ALLOWED.has(name) && seen.has(name)) {
      throw new ConfigError(`Error reading configuration file ${path}: Option '-${name}' is duplicated, which is not allowed.`);
    }
    seen.add(name);
    if (name.startsWith('no') && name.length > 2) {
      name = name.slice(2);
      value = interpretBool(value) ? '0' : '1';
    }
    const list = options.get(name) ?? [];
    list.push(value);
    options.set(name, list);
  }
  return options;
}

/** Options zcashd lets the configuration file add to, rather than be overridden by, the command line. */
const MULTI_VALUED = new Set(['rpcauth', 'rpcallowip', 'rpcbind', 'nuparams']);

export interface NodeConfig {
  network: NetworkParams;
  /** The base data directory (`-datadir`, default `~/.zecrpc`). */
  baseDatadir: string;
  /** The network's data directory (base, or base/testnet3, base/regtest). */
  datadir: string;
  /** The configuration file read (it need not exist). */
  confPath: string;
  rpcPort: number;
  rpcBind: string[];
  rpcAllowIp: string[];
  rpcUser: string | undefined;
  rpcPassword: string | undefined;
  rpcAuth: string[];
  /** Absolute path of the cookie file (used when no -rpcpassword is set). */
  rpcCookieFile: string;
  rpcThreads: number;
  rpcWorkQueue: number;
  /** Seconds. */
  rpcServerTimeout: number;
  upstream: string | undefined;
  /** Every value of an option (command line first, then the file). */
  getArgs(name: string): string[];
  /** The effective value of a single-valued option. */
  getArg(name: string): string | undefined;
  /** zcashd's GetBoolArg: absent → fallback; otherwise InterpretBool ("" or a non-zero number → true). */
  getBoolArg(name: string, fallback: boolean): boolean;
}

function intOption(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value.trim())) throw new ConfigError(`Error: Invalid value for -${name}: '${value}' (expected an integer)`);
  const n = Number(value.trim());
  if (n < min || n > max) throw new ConfigError(`Error: Invalid value for -${name}: ${n} (must be between ${min} and ${max})`);
  return n;
}

function expandHome(p: string): string {
  return p === '~' ? homedir() : p.startsWith('~/') ? join(homedir(), p.slice(2)) : p;
}

/**
 * zcashd's `-nuparams=<hexBranchId>:<activationHeight>` (InitNUParams): the branch id is matched
 * as zcashd prints it (eight lowercase hex digits), and upgrades left unset before a set one
 * activate with the next later one, as zcashd fills them in for regtest tests. Heights start at 1
 * here (the genesis block is a Sprout block on every network).
 */
function regtestNetwork(values: readonly string[]): NetworkParams {
  if (values.length === 0) return REGTEST;
  const heights: Partial<Record<NetworkUpgrade, number>> = {};
  for (const value of values) {
    const parts = value.split(':');
    if (parts.length !== 2) throw new ConfigError('Error: Network upgrade parameters malformed, expecting hexBranchId:activationHeight');
    const [branch, heightText] = parts as [string, string];
    if (!/^\d+$/.test(heightText) || Number(heightText) < 1 || Number(heightText) > 0x7fffffff) {
      throw new ConfigError(`Error: Invalid nActivationHeight (${heightText})`);
    }
    const upgrade = NETWORK_UPGRADES.find((u) => hexInt(BRANCH_IDS[u]) === branch);
    if (!upgrade) throw new ConfigError(`Error: Invalid network upgrade (${branch})`);
    heights[upgrade] = Number(heightText);
  }
  let later: number | undefined;
  for (const upgrade of [...NETWORK_UPGRADES].reverse()) {
    if (heights[upgrade] === undefined && later !== undefined) heights[upgrade] = later;
    later = heights[upgrade];
  }
  try {
    return regtestWithActivations(heights);
  } catch (e) {
    throw new ConfigError(`Error: -nuparams: ${(e as Error).message}`);
  }
}

export const DEFAULT_DATADIR = join(homedir(), '.zecrpc');

/**
 * zcashd's first start-up check: a `-datadir` given on the command line must be an existing
 * directory (a mistyped path is refused rather than created and served empty). The default data
 * directory is created when missing, as zcashd does.
 */
export function assertDatadirExists(argv: readonly string[]): void {
  const given = parseZcashArgs(argv).options.get('datadir')?.at(-1);
  if (given === undefined) return;
  let isDir = false;
  try {
    isDir = given !== '' && statSync(resolve(expandHome(given))).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new ConfigError(`Error: Specified data directory "${given}" does not exist.`);
}

/**
 * Builds the node configuration from zcashd-style arguments (and the configuration file they
 * point to). Creates the data directory if it does not exist yet, so a fresh machine works.
 */
export function loadNodeConfig(argv: readonly string[]): NodeConfig {
  const cli = parseZcashArgs(argv).options;
  const first = (name: string) => cli.get(name)?.at(-1);
  const baseDatadir = resolve(expandHome(first('datadir') ?? DEFAULT_DATADIR));
  const confName = expandHome(first('conf') ?? 'zcash.conf');
  const confPath = isAbsolute(confName) ? confName : join(baseDatadir, confName);
  let file: OptionMap = new Map();
  if (existsSync(confPath)) file = parseConfFile(readFileSync(confPath, 'utf8'), confPath);
  else if (first('conf') !== undefined) throw new ConfigError(`Error: Configuration file ${confPath} does not exist`);

  const getArgs = (name: string): string[] => {
    const fromCli = cli.get(name) ?? [];
    const fromFile = file.get(name) ?? [];
    if (MULTI_VALUED.has(name)) return [...fromCli, ...fromFile];
    return fromCli.length > 0 ? fromCli : fromFile;
  };
  const getArg = (name: string): string | undefined => getArgs(name).at(-1);
  const getBoolArg = (name: string, fallback: boolean): boolean => {
    const v = getArg(name);
    return v === undefined ? fallback : interpretBool(v);
  };

  const testnet = getBoolArg('testnet', false);
  const regtest = getBoolArg('regtest', false);
  if (testnet && regtest) throw new ConfigError('Error: Invalid combination of -regtest and -testnet.');
  const network = regtest ? regtestNetwork(getArgs('nuparams')) : testnet ? TESTNET : MAINNET;
  if (!regtest && getArgs('nuparams').length > 0)
    throw new ConfigError('Error: Network upgrade parameters may only be overridden on regtest.');
  const datadir = network.dataSubdir ? join(baseDatadir, network.dataSubdir) : baseDatadir;
  ensureDirSync(datadir);

  const cookieName = expandHome(getArg('rpccookiefile') ?? '.cookie');
  const upstream = getArg('upstream');
  if (upstream !== undefined && !/^https?:\/\//.test(upstream)) {
    throw new ConfigError(`Error: Invalid value for -upstream: '${upstream}' (expected an http:// or https:// URL)`);
  }
  const password = getArg('rpcpassword');
  return {
    network,
    baseDatadir,
    datadir,
    confPath,
    rpcPort: intOption(getArg('rpcport'), 'rpcport', network.defaultRpcPort, 0, 65535),
    rpcBind: getArgs('rpcbind'),
    rpcAllowIp: getArgs('rpcallowip'),
    rpcUser: getArg('rpcuser'),
    rpcPassword: password === '' ? undefined : password,
    rpcAuth: getArgs('rpcauth'),
    rpcCookieFile: isAbsolute(cookieName) ? cookieName : join(datadir, cookieName),
    rpcThreads: intOption(getArg('rpcthreads'), 'rpcthreads', 4, 1, 1024),
    rpcWorkQueue: intOption(getArg('rpcworkqueue'), 'rpcworkqueue', 16, 1, 1_000_000),
    rpcServerTimeout: intOption(getArg('rpcservertimeout'), 'rpcservertimeout', 30, 1, 86_400),
    upstream,
    getArgs,
    getArg,
    getBoolArg,
  };
}
