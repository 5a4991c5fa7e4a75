/**
 * The zcashd-style options each command takes, for its help text and to refuse anything else.
 * zcashd's own parser accepts any `-name`; zecrpc refuses names a command does not read, so a
 * typo or a zcashd-only flag (`-daemon`, `-txindex`, …) is reported instead of silently ignored.
 * Only the command line is checked: zcash.conf may be shared with zcashd and hold its keys.
 */
import { ConfigError, type OptionMap } from '../config.js';

export interface OptionDoc {
  /** Without the dash. */
  name: string;
  /** Shown as `-name=<value>`; absent for switches. */
  value?: string;
  help: string;
}

export type CommandName = 'serve' | 'import' | 'cli' | 'verify';

const HELP: OptionDoc = { name: '?', help: 'This help message (also -h, -help, --help)' };
const VERSION: OptionDoc = { name: 'version', help: 'Print the version and exit' };
const CONF: OptionDoc = {
  name: 'conf',
  value: 'file',
  help: 'Specify configuration file. Relative paths will be prefixed by datadir location. (default: zcash.conf)',
};
const DATADIR: OptionDoc = {
  name: 'datadir',
  value: 'dir',
  help: 'Specify data directory; it must exist (default: ~/.zecrpc, created when missing)',
};
const TESTNET: OptionDoc = { name: 'testnet', help: 'Use the test network' };
const REGTEST: OptionDoc = { name: 'regtest', help: 'Use the regression test network' };
const NUPARAMS: OptionDoc = {
  name: 'nuparams',
  value: 'hexBranchId:activationHeight',
  help: 'Regtest only: activate a network upgrade at a height (earlier upgrades left unset activate with it). Repeatable',
};

const REGTESTSHIELDCOINBASE: OptionDoc = {
  name: 'regtestshieldcoinbase',
  help: 'Regtest only: enforce that transparent coinbase outputs are spent only to shielded outputs (on whenever given)',
};

const SYSPERMS: OptionDoc = {
  name: 'sysperms',
  help: 'Create new files with system default permissions, instead of umask 077',
};

const ADDRESSINDEX: OptionDoc = {
  name: 'addressindex',
  help:
    'Keep the address, spent and timestamp indexes that -insightexplorer and -lightwalletd read (default: 1). ' +
    '-addressindex=0 (or -noaddressindex) creates a store without them: most of the keys a finished store holds ' +
    "are theirs, so it takes less disk and an import writes fewer rows, but it cannot serve those flags' methods nor " +
    "getrawtransaction's spent-index fields. A store keeps what it was created with: give the same value to serve, " +
    'import, verify and verify -repair',
};

/** What every command that opens a chain store reads first: help, version, where, which network, which indexes. */
const STORE_OPTIONS: readonly OptionDoc[] = [
  HELP,
  VERSION,
  CONF,
  DATADIR,
  TESTNET,
  REGTEST,
  NUPARAMS,
  REGTESTSHIELDCOINBASE,
  SYSPERMS,
  ADDRESSINDEX,
];

export const SERVE_OPTIONS: readonly OptionDoc[] = [
  ...STORE_OPTIONS,
  { name: 'rpcport', value: 'port', help: 'Listen for JSON-RPC connections on <port> (default: 8232 or testnet/regtest: 18232)' },
  {
    name: 'rpcbind',
    value: 'addr',
    help: 'Bind to given address to listen for JSON-RPC connections (only with -rpcallowip). Use [host]:port notation for IPv6. Repeatable',
  },
  {
    name: 'rpcallowip',
    value: 'ip',
    help: 'Allow JSON-RPC connections from specified source: a single IP, a network/netmask or a network/CIDR. Repeatable',
  },
  { name: 'rpcuser', value: 'user', help: 'Username for JSON-RPC connections' },
  { name: 'rpcpassword', value: 'pw', help: 'Password for JSON-RPC connections (without one, cookie authentication is used)' },
  { name: 'rpcauth', value: 'userpw', help: 'Username and hashed password for JSON-RPC connections, <USERNAME>:<SALT>$<HASH>. Repeatable' },
  { name: 'rpccookiefile', value: 'loc', help: 'Location of the auth cookie (default: data dir/.cookie)' },
  { name: 'rpcthreads', value: 'n', help: 'Number of threads to service RPC calls (default: 4)' },
  { name: 'rpcworkqueue', value: 'n', help: 'Depth of the work queue to service RPC calls (default: 16)' },
  { name: 'rpcservertimeout', value: 'n', help: 'Timeout during HTTP requests, in seconds (default: 30)' },
  { name: 'rest', help: 'Accept public REST requests (default: 0)' },
  { name: 'upstream', value: 'url', help: 'Follow a running zcashd or zebrad at this JSON-RPC URL (also --upstream <url>)' },
  { name: 'upstreamuser', value: 'user', help: 'Username for the upstream node' },
  { name: 'upstreampassword', value: 'pw', help: 'Password for the upstream node' },
  { name: 'upstreamcookie', value: 'file', help: "The upstream node's .cookie file" },
  { name: 'upstreampoll', value: 'seconds', help: 'How often to poll the upstream tip (default: 5; fractions down to 0.001)' },
  {
    name: 'metricsbind',
    value: 'addr:port',
    help: 'Serve Prometheus metrics at /metrics, and /healthy and /ready for load balancers, on this address (a listener of its own, never the RPC port; off by default)',
  },
  {
    name: 'readymaxlag',
    value: 'n',
    help: "With -upstream: /ready answers 503 when the store is more than <n> blocks behind the upstream's tip (default: 2)",
  },
  {
    name: 'debug',
    value: 'category',
    help: 'Output debugging information. -debug=rpc (or -debug, -debug=1) logs every JSON-RPC request; -debug=0 turns it off',
  },
  {
    name: 'loglevel',
    value: 'level',
    help: 'Log level: fatal, error, warn, info, debug, trace or silent (default: info; debug also logs every request)',
  },
  {
    name: 'rpcrequestmemory',
    value: 'MiB',
    help: 'Memory one request may use while its reply is built (default: from the machine memory)',
  },
  { name: 'rpcmemory', value: 'MiB', help: 'Memory all replies in flight may use together (default: from the machine memory)' },
  {
    name: 'rpcbodymemory',
    value: 'MiB',
    help: 'Memory all request bodies being received may use together (default: from the machine memory)',
  },
  { name: 'rpcssl', help: 'Refused, as by zcashd: SSL mode for RPC is no longer supported' },
  {
    name: 'mocktime',
    value: 'n',
    help: 'Replace actual time with <n> seconds since epoch; on regtest, setmocktime moves it. Incompatible with -clockoffset (default: 0)',
  },
  {
    name: 'allowdeprecated',
    value: 'feature',
    help: 'Explicitly allow the use of the specified deprecated feature (addrtype, deprecationinfo_deprecationheight, …; none for none). Repeatable',
  },
  {
    name: 'preferredtxversion',
    value: 'version',
    help: 'createrawtransaction: create transactions of this version when possible, 4 or 5 (default: 5)',
  },
  {
    name: 'txexpirydelta',
    value: 'n',
    help: 'createrawtransaction: blocks after which a transaction not mined becomes invalid (min: 4, default: 20 (pre-Blossom) or 40 (post-Blossom))',
  },
  { name: 'clockoffset', value: 'n', help: 'Applies offset of <n> seconds to the actual time. Incompatible with -mocktime (default: 0)' },
  { name: 'uacomment', value: 'cmt', help: "Append a comment to getinfo's subversion. Repeatable" },
  {
    name: 'minrelaytxfee',
    value: 'amt',
    help: "getinfo's relayfee, in ZEC per 1000 bytes; checked as zcashd checks it (default: 0.000001). zecrpc relays nothing itself",
  },
  {
    name: 'paytxfee',
    value: 'amt',
    help: "getinfo's paytxfee, in ZEC per 1000 bytes; checked as zcashd checks it, at least -minrelaytxfee (default: 0). zecrpc has no wallet",
  },
  {
    name: 'compat',
    value: 'profile',
    help: "Reproduce this zcashd release's replies: what its parser accepts and what its RPC methods print (6.12.2; default: 6.12.2)",
  },
  {
    name: 'legacyorchardroot',
    help: 'Print getblock finalorchardroot and z_gettreestate orchard finalRoot byte-reversed, as zcashd v4.5.0-v5.2.0 did (default: v6.12.2 order)',
  },
  { name: 'experimentalfeatures', help: 'Enable the experimental features below' },
  { name: 'insightexplorer', help: 'Serve the insight explorer methods (needs -experimentalfeatures)' },
  { name: 'lightwalletd', help: 'Serve the methods lightwalletd uses (needs -experimentalfeatures)' },
  { name: 'developerencryptwallet', help: 'Accepted for zcashd compatibility (needs -experimentalfeatures); zecrpc has no wallet' },
  { name: 'developersetpoolsizezero', help: 'Accepted for zcashd compatibility (needs -experimentalfeatures)' },
  { name: 'paymentdisclosure', help: 'Accepted for zcashd compatibility (needs -experimentalfeatures)' },
  { name: 'datacarrier', help: 'sendrawtransaction: OP_RETURN outputs are standard (default: 1)' },
  { name: 'datacarriersize', value: 'n', help: 'sendrawtransaction: largest standard OP_RETURN script, in bytes (default: 83)' },
  { name: 'permitbaremultisig', help: 'sendrawtransaction: bare multisig outputs are standard (default: 1)' },
  {
    // Every zcashd v6.12.2 start needs it, so copied service definitions carry it.
    name: 'i-am-aware-zcashd-will-be-replaced-by-zebrad-and-zallet-in-2025',
    help: 'Accepted for zcashd compatibility (zcashd v6.12.2 refuses to start without it); no effect',
  },
];

/** The zcashd-style options of `zecrpc import`; its source options are `--long` ones. */
export const IMPORT_OPTIONS: readonly OptionDoc[] = [
  ...STORE_OPTIONS,
  {
    name: 'dbcache',
    value: 'n',
    help: 'Keep the last batches of blocks written in <n> MiB of memory, where coins they created are read before the database when spent (4 to 16384, default: 450)',
  },
];

export const CLIENT_OPTIONS: readonly OptionDoc[] = [
  HELP,
  VERSION,
  CONF,
  DATADIR,
  {
    name: 'stdin',
    help: 'Read extra arguments from standard input, one per line until EOF/Ctrl-D (recommended for sensitive information such as passphrases)',
  },
  TESTNET,
  REGTEST,
  { name: 'rpcconnect', value: 'ip', help: 'Send commands to node running on <ip> (default: 127.0.0.1)' },
  { name: 'rpcport', value: 'port', help: 'Connect to JSON-RPC on <port> (default: 8232 or testnet: 18232)' },
  { name: 'rpcwait', help: 'Wait for RPC server to start' },
  { name: 'rpcuser', value: 'user', help: 'Username for JSON-RPC connections' },
  { name: 'rpcpassword', value: 'pw', help: 'Password for JSON-RPC connections' },
  { name: 'rpccookiefile', value: 'loc', help: 'Location of the auth cookie (default: data dir/.cookie)' },
  { name: 'rpcclienttimeout', value: 'n', help: 'Timeout in seconds during HTTP requests, or 0 for no timeout. (default: 900)' },
  { name: 'rpcssl', help: 'Refused, as by zcash-cli: SSL mode for RPC is no longer supported (-norpcssl is accepted)' },
];

/** `zecrpc verify` reads the same store options as import, and `-repair`. */
export const VERIFY_OPTIONS: readonly OptionDoc[] = [
  ...IMPORT_OPTIONS,
  {
    name: 'repair',
    help: 'Rebuild a store that lost committed data from its own block files (the damaged store is kept as zecrpc.damaged beside it)',
  },
];

const BY_COMMAND: Record<CommandName, readonly OptionDoc[]> = {
  serve: SERVE_OPTIONS,
  import: IMPORT_OPTIONS,
  cli: CLIENT_OPTIONS,
  verify: VERIFY_OPTIONS,
};

/** How each command is invoked, for messages. */
export const COMMAND_LABEL: Record<CommandName, string> = {
  serve: 'zecrpc serve',
  import: 'zecrpc import',
  cli: 'zecrpc-cli',
  verify: 'zecrpc verify',
};

/** Option names zcashd reads that zecrpc has no use for, with what to do instead. */
const ZCASHD_ONLY: Record<string, string> = {
  daemon: 'zecrpc does not fork into the background; run it under systemd or another supervisor (docs/operating.md, Running under systemd)',
  server: 'the JSON-RPC server is always on',
  printtoconsole: 'zecrpc always logs to standard output',
  txindex: 'zecrpc always keeps a transaction index',
};

/** True for zcashd's help switches: `-?`, `-h`, `-help` and their double-dash forms. */
export function isHelpFlag(arg: string): boolean {
  return /^--?(\?|h|help)$/.test(arg);
}

export function isVersionFlag(arg: string): boolean {
  return /^--?version$/.test(arg);
}

/** Refuses any option `command` does not read, naming the command that does when there is one. */
export function checkOptions(options: OptionMap, command: CommandName): void {
  const known = new Set(BY_COMMAND[command].map((o) => o.name));
  for (const name of options.keys()) {
    if (known.has(name)) continue;
    const label = COMMAND_LABEL[command];
    const owners = (Object.keys(BY_COMMAND) as CommandName[]).filter((c) => BY_COMMAND[c].some((o) => o.name === name));
    let why: string;
    if (owners.length > 0) why = `it is an option of ${owners.map((c) => COMMAND_LABEL[c]).join(' and ')}`;
    else if (ZCASHD_ONLY[name] !== undefined) why = `a zcashd option zecrpc does not take: ${ZCASHD_ONLY[name]}`;
    else why = 'unknown option';
    throw new ConfigError(`Error: ${label} does not take -${name} (${why}). See '${label} -help'.`);
  }
}

/** zcashd's help layout (HelpMessageOpt): the option indented 2, its text indented 7 and wrapped at 79 columns. */
export function formatOptions(docs: readonly OptionDoc[]): string {
  return docs.map((o) => `  -${o.name}${o.value ? `=<${o.value}>` : ''}\n${wrap(o.help, 7, 79)}\n`).join('\n');
}

function wrap(text: string, indent: number, width: number): string {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent + line.length + 1 + word.length > width) {
      lines.push(pad + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(pad + line);
  return lines.join('\n');
}
