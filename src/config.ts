/**
 * zcashd-style configuration: `-name=value` / `-name` / `-noname` command-line options and a
 * zcash.conf-style file (`name=value` lines, `#` comments), read as zcashd's ArgsManager reads
 * them: a single-valued option takes the command line's last value, else the file's first
 * (mapArgs); a repeatable one (`-rpcauth`, `-rpcallowip`, `-rpcbind`, `-debug`, `-uacomment`,
 * `-nuparams`) takes every value, the command line's then the file's (mapMultiArgs).
 */
import { statSync } from 'node:fs';
import { readTextBounded, type BoundedReadOptions } from './bounded-read.js';
import type { ClockMode } from './clock.js';
import { hexInt } from './codec/hex.js';
import { DBCACHE_MIB_RANGE, DEFAULT_DBCACHE_MIB } from './store/dbcache.js';
import { ensureDirSync } from './store/dirs.js';
import { COMPAT_PROFILES, compatProfileNamed, DEFAULT_COMPAT_PROFILE, networkUnderProfile, type CompatProfile } from './compat/profiles.js';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import {
  BRANCH_IDS,
  MAINNET,
  NETWORK_UPGRADES,
  REGTEST,
  regtestWithActivations,
  TESTNET,
  type NetworkName,
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

const ADDRESS_INDEX_FORMS =
  '-addressindex takes only -addressindex or -addressindex=1 (keep the address index, the default) and -addressindex=0 or ' +
  '-noaddressindex (create the store without it), in zcash.conf addressindex=1, addressindex=0 or noaddressindex=1. ' +
  'The choice stays with the store.';

/**
 * Options whose choice cannot be undone, which take only the exact boolean forms (`-name`,
 * `-name=1`, `-name=0`, `-noname`, `-noname=1`): zcashd's InterpretBool would read `=true` or
 * `=yes` as 0. Each with the message that names its forms.
 */
const EXACT_BOOLEANS: ReadonlyMap<string, string> = new Map([['addressindex', ADDRESS_INDEX_FORMS]]);

/** Adds one `name=value`; as in zcashd's InterpretNegativeSetting, `-noname` means `-name=0` and `-noname=0` means `-name=1`. */
function addOption(options: OptionMap, written: string, value: string): void {
  const negated = written.startsWith('no') && written.length > 2;
  const name = negated ? written.slice(2) : written;
  const forms = EXACT_BOOLEANS.get(name);
  if (forms !== undefined && !(negated ? ['', '1'] : ['', '0', '1']).includes(value)) {
    throw new ConfigError(`Error: Invalid value in '-${written}=${value}': ${forms}`);
  }
  const list = options.get(name) ?? [];
  list.push(negated ? (interpretBool(value) ? '0' : '1') : value);
  options.set(name, list);
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
    const name = m[1]!;
    if (!NAME_RE.test(name)) throw new ConfigError(`Error: Invalid option name in '${arg}'`);
    addOption(options, m[1]!, m[2] ?? '');
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
    const name = prefix + trimWs(line.slice(0, eq));
    const value = trimWs(line.slice(eq + 1));
    if (name === '') throw new ConfigError(`Error reading configuration file ${path}: unrecognised option ''`);
    if (!CONF_DUPLICATES_ALLOWED.has(name) && seen.has(name)) {
      throw new ConfigError(`Error reading configuration file ${path}: Option '-${name}' is duplicated, which is not allowed.`);
    }
    seen.add(name);
    addOption(options, name, value);
  }
  return options;
}

/** zcashd-style settings from arguments and zcash.conf: the network, the data dir, the `-compat` profile and every option's value. */
export interface NodeConfig {
  /** `-compat=<name>`: the zcashd release whose replies are reproduced (compat/profiles.ts). */
  compat: CompatProfile;
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
  /** Every value of an option, the command line's then the file's (zcashd's mapMultiArgs). */
  getArgs(name: string): string[];
  /** A single-valued option: the command line's last value, else the file's first (zcashd's mapArgs). */
  getArg(name: string): string | undefined;
  /** zcashd's GetBoolArg: absent → fallback; otherwise InterpretBool ("" or a non-zero number → true). */
  getBoolArg(name: string, fallback: boolean): boolean;
}

function integerOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value.trim())) throw new ConfigError(`Error: Invalid value for -${name}: '${value}' (expected an integer)`);
  return Number(value.trim());
}

function intOption(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  const n = integerOption(value, name, fallback);
  if (n < min || n > max) throw new ConfigError(`Error: Invalid value for -${name}: ${n} (must be between ${min} and ${max})`);
  return n;
}

/** zcashd's atoi64 (strtoll): leading blanks, an optional sign, digits; 0 when there are none. */
function atoi64(value: string): bigint {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(value);
  if (m === null) return 0n;
  const n = BigInt(m[1]!);
  const max = (1n << 63n) - 1n;
  // strtoll saturates.
  return n > max ? max : n < -max - 1n ? -max - 1n : n;
}

/** DEFAULT_ALLOW_DEPRECATED (zcashd v6.12.2 deprecation.h, a build with the wallet), in std::set order. */
export const DEFAULT_ALLOW_DEPRECATED: readonly string[] = [
  'createrawtransaction',
  'fundrawtransaction',
  'getnetworkhashps',
  'keypoolrefill',
  'settxfee',
  'signrawtransaction',
  'z_gettotalbalance',
];
/** DEFAULT_DENY_DEPRECATED, likewise. */
export const DEFAULT_DENY_DEPRECATED: readonly string[] = [
  'addrtype',
  'deprecationinfo_deprecationheight',
  'gbt_oldhashes',
  'getnewaddress',
  'getrawchangeaddress',
  'legacy_privacy',
  'wallettxvjoinsplit',
  'z_getbalance',
  'z_getnewaddress',
  'z_listaddresses',
];

/**
 * `-allowdeprecated` (zcashd's LoadAllowedDeprecatedFeatures): the deprecated features that
 * are on — the defaults plus those named, or none with `-allowdeprecated=none` — with zcashd's
 * messages for `none` among others and for names it does not know.
 */
export function allowDeprecatedOption(config: Pick<NodeConfig, 'getArgs'>): ReadonlySet<string> {
  const given = new Set(config.getArgs('allowdeprecated'));
  let allowed: Set<string>;
  if (given.has('none')) {
    if (given.size > 1) throw new ConfigError('When using -allowdeprecated=none no other values may be provided for -allowdeprecated.');
    allowed = new Set();
  } else {
    allowed = new Set([...given, ...DEFAULT_ALLOW_DEPRECATED]);
  }
  const known = new Set([...DEFAULT_ALLOW_DEPRECATED, ...DEFAULT_DENY_DEPRECATED]);
  const unrecognized = [...allowed].filter((f) => !known.has(f)).sort();
  if (unrecognized.length > 0) {
    const allowable = ['none', ...DEFAULT_ALLOW_DEPRECATED, ...DEFAULT_DENY_DEPRECATED].map((f) => `"${f}"`).join(', ');
    throw new ConfigError(
      `Unrecognized argument(s) to -allowdeprecated: ${unrecognized.map((f) => `"${f}"`).join(', ')};\n` +
        `Please select from the following values: ${allowable}`,
    );
  }
  return allowed;
}

/** What createrawtransaction builds by default: `-preferredtxversion`, `-txexpirydelta`. */
export interface TxCreationDefaults {
  /** 4 or 5: below 5 a transaction is v4 even where NU5 is active. */
  preferredTxVersion: number;
  /** Blocks from the next height to the expiry height; null for zcashd's 20 (pre-Blossom) or 40. */
  expiryDelta: number | null;
}

/**
 * `-txexpirydelta` (the wallet's ParameterInteraction: at least TX_EXPIRING_SOON_THRESHOLD + 1
 * = 4) and `-preferredtxversion` (init.cpp: 4 or 5, default 5), read with atoi as zcashd reads
 * them and refused with its messages.
 */
export function txCreationOption(config: Pick<NodeConfig, 'getArg'>): TxCreationDefaults {
  const deltaText = config.getArg('txexpirydelta');
  let expiryDelta: number | null = null;
  if (deltaText !== undefined) {
    const delta = atoi64(deltaText);
    if (delta < 4n) throw new ConfigError(`Error: Invalid value for -txexpirydelta='${delta}' (must be least 4)`);
    // zcashd keeps it as an unsigned int; one that puts the expiry height past the threshold
    // is refused when a transaction is created, as there.
    expiryDelta = Number(BigInt.asUintN(32, delta));
  }
  // The wallet's parameters are read before -preferredtxversion (init.cpp).
  const versionText = config.getArg('preferredtxversion');
  const version = versionText === undefined ? 5n : BigInt.asIntN(32, atoi64(versionText));
  if (version !== 4n && version !== 5n) throw new ConfigError(`Error: Invalid value for -preferredtxversion=<version>: ${version}`);
  return { preferredTxVersion: Number(version), expiryDelta };
}

/**
 * `-dbcache=<n>` (MiB): what `zecrpc import` keeps of the coins it wrote last, for the spends
 * that follow (store/committed-coins.ts). Read as zcashd reads it (init.cpp: GetArg's atoi64,
 * then the nearer of 4 and 16384 MiB), so it never fails: a `zcash.conf` shared with zcashd that
 * says `dbcache=450M` means 450 to both, and a bare `-dbcache` (0) the least.
 */
export function dbcacheBytesOption(config: Pick<NodeConfig, 'getArg'>): number {
  const value = config.getArg('dbcache');
  const mib = value === undefined ? BigInt(DEFAULT_DBCACHE_MIB) : atoi64(value);
  const clamped = mib < DBCACHE_MIB_RANGE.min ? DBCACHE_MIB_RANGE.min : mib > DBCACHE_MIB_RANGE.max ? DBCACHE_MIB_RANGE.max : Number(mib);
  return clamped * 1024 * 1024;
}

/**
 * `-addressindex` (default 1): whether the chain store keeps the insight explorer's address,
 * spent and timestamp indexes. A store keeps what it was created with (store/chain.ts), and
 * -insightexplorer and -lightwalletd read these indexes. The choice cannot be undone, so the
 * parsers take only its exact forms (EXACT_BOOLEANS).
 */
export function addressIndexOption(config: Pick<NodeConfig, 'getBoolArg'>): boolean {
  return config.getBoolArg('addressindex', true);
}

/** Clock settings stay within what a JavaScript time in milliseconds holds exactly. */
const MAX_CLOCK_SECONDS = Math.floor(Number.MAX_SAFE_INTEGER / 1000);

/**
 * `-mocktime=<n>` and `-clockoffset=<n>` (zcashd's init.cpp): a fixed clock, the system clock
 * shifted by n seconds, or (both 0, the default) the system clock; never both.
 */
export function clockModeOption(config: Pick<NodeConfig, 'getArg'>): ClockMode {
  const mockTime = intOption(config.getArg('mocktime'), 'mocktime', 0, -MAX_CLOCK_SECONDS, MAX_CLOCK_SECONDS);
  const offset = intOption(config.getArg('clockoffset'), 'clockoffset', 0, -MAX_CLOCK_SECONDS, MAX_CLOCK_SECONDS);
  if (mockTime !== 0 && offset !== 0) throw new ConfigError('Error: -mocktime and -clockoffset cannot be used together');
  if (mockTime !== 0) return { kind: 'fixed', seconds: mockTime };
  if (offset !== 0) return { kind: 'offset', seconds: offset };
  return { kind: 'system' };
}

/** `-compat=<name>`: a known profile's name, the default without the option. */
function compatProfileOption(value: string | undefined): CompatProfile {
  if (value === undefined) return DEFAULT_COMPAT_PROFILE;
  const profile = compatProfileNamed(value);
  if (profile === null) {
    const known = COMPAT_PROFILES.map((p) => p.name).join(', ');
    throw new ConfigError(`Error: Invalid value for -compat: '${value}' (known compatibility profiles: ${known})`);
  }
  return profile;
}

function expandHome(p: string): string {
  return p === '~' ? homedir() : p.startsWith('~/') ? join(homedir(), p.slice(2)) : p;
}

/**
 * zcashd's `-nuparams=<hexBranchId>:<activationHeight>` (InitNUParams): the branch id is matched
 * as zcashd prints it (eight lowercase hex digits), and upgrades left unset before a set one
 * activate with the next later one, as zcashd fills them in for regtest tests. Heights start at 1
 * here (the genesis block is a Sprout block on every network). Only the upgrades the `-compat`
 * profile's release knows are named: v6.12.2 does not know NU6.2's branch id.
 */
function regtestNetwork(values: readonly string[], known: readonly NetworkUpgrade[]): NetworkParams {
  if (values.length === 0) return REGTEST;
  const heights: Partial<Record<NetworkUpgrade, number>> = {};
  for (const value of values) {
    const parts = value.split(':');
    if (parts.length !== 2) throw new ConfigError('Error: Network upgrade parameters malformed, expecting hexBranchId:activationHeight');
    const [branch, heightText] = parts as [string, string];
    if (!/^\d+$/.test(heightText) || Number(heightText) < 1 || Number(heightText) > 0x7fffffff) {
      throw new ConfigError(`Error: Invalid nActivationHeight (${heightText})`);
    }
    const upgrade = known.find((u) => hexInt(BRANCH_IDS[u]) === branch);
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

/** What a node's consensus parameters are derived from: the network chosen and the options that change it. */
export interface NodeNetworkOptions {
  name: NetworkName;
  /** Every `-nuparams` value, in the order given; regtest only. */
  nuparams: readonly string[];
  /** The `-compat` profile: a node of its release schedules only the upgrades it knows. */
  compat: CompatProfile;
  /** `-regtestshieldcoinbase` given (regtest only; ignored elsewhere, as zcashd ignores it). */
  regtestShieldCoinbase?: boolean;
}

/**
 * The consensus parameters a node runs with, as `zecrpc serve` derives them (and every command
 * that opens a store the way serve does): the network's schedule, regtest's from `-nuparams`
 * parsed with zcashd's messages, restricted to the upgrades the `-compat` profile knows.
 */
export function nodeNetwork(o: NodeNetworkOptions): NetworkParams {
  const regtest = o.name === 'regtest';
  if (!regtest && o.nuparams.length > 0) throw new ConfigError('Error: Network upgrade parameters may only be overridden on regtest.');
  const scheduled = regtest ? regtestNetwork(o.nuparams, o.compat.upgrades) : o.name === 'testnet' ? TESTNET : MAINNET;
  const profiled = networkUnderProfile(scheduled, o.compat);
  return regtest && o.regtestShieldCoinbase === true ? { ...profiled, coinbaseMustBeShielded: true } : profiled;
}

/**
 * `-fundingstream` and `-onetimelockboxdisbursement` (zcash.conf, shared with a zcashd regtest
 * node): zcashd refuses them off regtest with these words. On regtest they change what every
 * coinbase must pay, which zecrpc does not model, so it refuses them too rather than check (and
 * print) a different chain than the zcashd it stands beside.
 */
function refuseRegtestRewardOverrides(regtest: boolean, getArgs: (name: string) => string[]): void {
  const overrides = [
    ['fundingstream', 'Funding stream parameters may only be overridden on regtest.'],
    ['onetimelockboxdisbursement', 'One-time lockbox disbursement parameters may only be overridden on regtest.'],
  ] as const;
  for (const [name, offRegtest] of overrides) {
    if (getArgs(name).length === 0) continue;
    if (!regtest) throw new ConfigError(`Error: ${offRegtest}`);
    throw new ConfigError(`Error: -${name} is not supported by zecrpc: it cannot check or print a regtest chain whose coinbases follow it`);
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
  if (given !== undefined) existingDatadir(given);
}

/** The absolute path of a given data directory, which must exist (zcashd's message otherwise). */
function existingDatadir(given: string): string {
  const path = resolve(expandHome(given));
  let isDir = false;
  try {
    isDir = given !== '' && statSync(path).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new ConfigError(`Error: Specified data directory "${given}" does not exist.`);
  return path;
}

/**
 * zcash.conf's size ceiling: far beyond any real configuration, and it keeps `-conf=/dev/zero`
 * (or a data file named by mistake) from reading until memory runs out.
 */
export const CONF_FILE_LIMIT: BoundedReadOptions = { maxBytes: 16 * 1024 * 1024, why: 'too large for a configuration file' };

/**
 * The configuration file's options. zcashd reads a directory named as the file (`-conf=` names
 * the data directory itself) as an empty file: its stream opens, and yields no line.
 */
function readConfFile(confPath: string, named: boolean): OptionMap {
  let isDir: boolean;
  try {
    isDir = statSync(confPath).isDirectory();
  } catch {
    if (named) throw new ConfigError(`Error: Configuration file ${confPath} does not exist`);
    return new Map();
  }
  if (isDir) return new Map();
  let text: string;
  try {
    text = readTextBounded(confPath, CONF_FILE_LIMIT);
  } catch (e) {
    throw new ConfigError(
      `Error: Configuration file ${confPath} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  return parseConfFile(text, confPath);
}

/**
 * Builds the node configuration from zcashd-style arguments (and the configuration file they
 * point to). Creates the data directory if it does not exist yet, so a fresh machine works.
 */
export function loadNodeConfig(argv: readonly string[]): NodeConfig {
  const cli = parseZcashArgs(argv).options;
  const fromCli = (name: string) => cli.get(name)?.at(-1);
  const cliDatadir = resolve(expandHome(fromCli('datadir') ?? DEFAULT_DATADIR));
  const confName = expandHome(fromCli('conf') ?? 'zcash.conf');
  const confPath = isAbsolute(confName) ? confName : join(cliDatadir, confName);
  const file = readConfFile(confPath, fromCli('conf') !== undefined);

  const getArgs = (name: string): string[] => [...(cli.get(name) ?? []), ...(file.get(name) ?? [])];
  const getArg = (name: string): string | undefined => fromCli(name) ?? file.get(name)?.[0];
  const getBoolArg = (name: string, fallback: boolean): boolean => {
    const v = getArg(name);
    return v === undefined ? fallback : interpretBool(v);
  };

  const testnet = getBoolArg('testnet', false);
  const regtest = getBoolArg('regtest', false);
  if (testnet && regtest) throw new ConfigError('Error: Invalid combination of -regtest and -testnet.');
  const compat = compatProfileOption(getArg('compat'));
  const network = nodeNetwork({
    name: regtest ? 'regtest' : testnet ? 'testnet' : 'mainnet',
    nuparams: getArgs('nuparams'),
    compat,
    // zcashd's SelectParams turns the rule on when the argument is present at all, whatever its value.
    regtestShieldCoinbase: getArgs('regtestshieldcoinbase').length > 0,
  });
  refuseRegtestRewardOverrides(regtest, getArgs);
  // As zcashd re-reads its data directory after the file: a `datadir=` there moves it (the file
  // stays the one found in the command line's data directory).
  const fileDatadir = fromCli('datadir') === undefined ? file.get('datadir')?.[0] : undefined;
  const baseDatadir = fileDatadir === undefined ? cliDatadir : existingDatadir(fileDatadir);
  const datadir = network.dataSubdir ? join(baseDatadir, network.dataSubdir) : baseDatadir;
  // Owner-only unless -sysperms, as under zcashd's umask 077, which it sets before creating these.
  ensureDirSync(datadir, getBoolArg('sysperms', false) ? undefined : 0o700);

  const cookieName = expandHome(getArg('rpccookiefile') ?? '.cookie');
  const password = getArg('rpcpassword');
  return {
    compat,
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
    getArgs,
    getArg,
    getBoolArg,
  };
}

/**
 * zcashd's umask 077 (init.cpp) for what the process creates from here on (store, block files),
 * unless `-sysperms`. For the `zecrpc` commands only: a program embedding the server keeps its own.
 */
export function applyZcashdUmask(config: Pick<NodeConfig, 'getBoolArg'>): void {
  if (process.platform !== 'win32' && !config.getBoolArg('sysperms', false)) process.umask(0o077);
}

/**
 * What only the server reads: zcash-cli never looks at these, so a zcash.conf shared by zcashd,
 * zecrpc and zecrpc-cli fails only the server over them, and only where zcashd would not start
 * either or the value could not mean anything.
 */
export interface RpcServerSettings {
  /** Requests run at once (`-rpcthreads`, default 4; zcashd raises anything below 1 to 1). */
  threads: number;
  /** Requests waiting beyond those (`-rpcworkqueue`, default 16; at least 1, as in zcashd). */
  workQueue: number;
  /** Seconds a connection may make no progress (`-rpcservertimeout`, default 30); 0 never times out, as libevent reads 0. */
  serverTimeout: number;
  /** `-upstream`: the node followed and relayed to. */
  upstream: string | undefined;
}

export function rpcServerSettings(config: Pick<NodeConfig, 'getArg'>): RpcServerSettings {
  const upstream = config.getArg('upstream');
  if (upstream !== undefined && !/^https?:\/\//.test(upstream)) {
    throw new ConfigError(`Error: Invalid value for -upstream: '${upstream}' (expected an http:// or https:// URL)`);
  }
  return {
    threads: Math.max(1, integerOption(config.getArg('rpcthreads'), 'rpcthreads', 4)),
    workQueue: Math.max(1, integerOption(config.getArg('rpcworkqueue'), 'rpcworkqueue', 16)),
    // A timer runs at most 2^31 - 1 ms (about 24.8 days): a longer wait would fire at once.
    serverTimeout: intOption(config.getArg('rpcservertimeout'), 'rpcservertimeout', 30, 0, Math.floor(0x7fffffff / 1000)),
    upstream,
  };
}
