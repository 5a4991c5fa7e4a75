/**
 * zcashd-style configuration: `-name=value` / `-name` / `-noname` command-line options and a
 * zcash.conf-style file (`name=value` lines, `#` comments). As in zcashd, the command line wins
 * for single-valued options, while repeatable options (`-rpcauth`, `-rpcallowip`, `-rpcbind`)
 * collect values from both.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { MAINNET, REGTEST, TESTNET, type NetworkParams } from './chain/network.js';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parsed options: every value given for each name, in order (command line first). */
export type OptionMap = Map<string, string[]>;

const NAME_RE = /^[A-Za-z0-9_.-]+$/;

/**
 * Splits zcashd-style arguments into options and the remaining (positional or `--long`)
 * arguments. `-name` has the empty value (zcashd's GetBoolArg reads it as true), `-noname` means "0".
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
    if (!NAME_RE.test(name)) throw new ConfigError(`Invalid option name in '${arg}'`);
    if (m[2] === undefined && name.startsWith('no') && name.length > 2) {
      name = name.slice(2);
      value = '0';
    }
    const list = options.get(name) ?? [];
    list.push(value);
    options.set(name, list);
  }
  return { options, rest };
}

/** Reads a zcash.conf-style file into an option map. */
export function parseConfFile(text: string, path: string): OptionMap {
  const options: OptionMap = new Map();
  text.split(/\r?\n/).forEach((raw, i) => {
    const hash = raw.indexOf('#');
    const line = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    if (line === '') return;
    const eq = line.indexOf('=');
    const name = (eq >= 0 ? line.slice(0, eq) : line).trim();
    const value = eq >= 0 ? line.slice(eq + 1).trim() : '1';
    if (!NAME_RE.test(name)) throw new ConfigError(`${path}:${i + 1}: cannot parse '${raw.trim()}' (expected name=value)`);
    const list = options.get(name) ?? [];
    list.push(value);
    options.set(name, list);
  });
  return options;
}

/** Options zcashd lets the configuration file add to, rather than be overridden by, the command line. */
const MULTI_VALUED = new Set(['rpcauth', 'rpcallowip', 'rpcbind']);

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
  /** zcashd's GetBoolArg: absent → fallback; "" or non-zero number → true. */
  getBoolArg(name: string, fallback: boolean): boolean;
}

function intOption(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value.trim())) throw new ConfigError(`Invalid value for -${name}: '${value}' (expected an integer)`);
  const n = Number(value.trim());
  if (n < min || n > max) throw new ConfigError(`Invalid value for -${name}: ${n} (must be between ${min} and ${max})`);
  return n;
}

function expandHome(p: string): string {
  return p === '~' ? homedir() : p.startsWith('~/') ? join(homedir(), p.slice(2)) : p;
}

export const DEFAULT_DATADIR = join(homedir(), '.zecrpc');

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
  else if (first('conf') !== undefined) throw new ConfigError(`Configuration file ${confPath} does not exist`);

  const getArgs = (name: string): string[] => {
    const fromCli = cli.get(name) ?? [];
    const fromFile = file.get(name) ?? [];
    if (MULTI_VALUED.has(name)) return [...fromCli, ...fromFile];
    return fromCli.length > 0 ? fromCli : fromFile;
  };
  const getArg = (name: string): string | undefined => getArgs(name).at(-1);
  const getBoolArg = (name: string, fallback: boolean): boolean => {
    const v = getArg(name);
    if (v === undefined) return fallback;
    return v === '' || (/^-?\d+$/.test(v) ? Number(v) !== 0 : true);
  };

  const testnet = getBoolArg('testnet', false);
  const regtest = getBoolArg('regtest', false);
  if (testnet && regtest) throw new ConfigError('Invalid combination of -regtest and -testnet.');
  const network = regtest ? REGTEST : testnet ? TESTNET : MAINNET;
  const datadir = network.dataSubdir ? join(baseDatadir, network.dataSubdir) : baseDatadir;
  mkdirSync(datadir, { recursive: true });

  const cookieName = expandHome(getArg('rpccookiefile') ?? '.cookie');
  const upstream = getArg('upstream');
  if (upstream !== undefined && !/^https?:\/\//.test(upstream)) {
    throw new ConfigError(`Invalid value for -upstream: '${upstream}' (expected an http:// or https:// URL)`);
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
