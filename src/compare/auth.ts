/**
 * Credentials for a node as zcash-cli finds them: explicit user/password first, then the URL's
 * own `user:password@`, then a cookie file, then a zcash.conf (`rpcuser`/`rpcpassword`, or, when
 * it sets no password, the `.cookie` in that data directory for the network the file selects).
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { COOKIE_FILE_LIMIT, readTextBounded } from '../bounded-read.js';
import { CONF_FILE_LIMIT, parseConfFile } from '../config.js';
import { CompareError } from './errors.js';

export interface NodeAuthOptions {
  user?: string;
  password?: string;
  cookieFile?: string;
  confFile?: string;
}

export interface ResolvedAuth {
  /** The `Authorization` header value, or null to send none. */
  header: string | null;
  /** Where the credentials came from, for messages (never the secret itself). */
  source: string;
}

function basic(user: string, password: string): string {
  return 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
}

function readCookie(file: string, side: string): string {
  let text: string;
  try {
    text = readTextBounded(file, COOKIE_FILE_LIMIT).trim();
  } catch (e) {
    throw new CompareError(`${side}: cannot read the cookie file ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (!text.includes(':')) throw new CompareError(`${side}: cookie file ${file} is not of the form user:password`);
  return text;
}

/** The network subfolder a zcash.conf selects (zcashd keeps testnet/regtest state in one). */
function confNetworkDir(options: Map<string, string[]>): string {
  const on = (name: string) => {
    const v = options.get(name)?.at(-1);
    return v !== undefined && (v === '' || (/^-?\d+$/.test(v) ? Number(v) !== 0 : true));
  };
  if (on('regtest')) return 'regtest';
  if (on('testnet')) return 'testnet3';
  return '';
}

export function resolveNodeAuth(url: URL, opts: NodeAuthOptions, side: string): ResolvedAuth {
  if (opts.user !== undefined || opts.password !== undefined) {
    return { header: basic(opts.user ?? '', opts.password ?? ''), source: 'user/password options' };
  }
  if (url.username || url.password) {
    return { header: basic(decodeURIComponent(url.username), decodeURIComponent(url.password)), source: 'URL credentials' };
  }
  if (opts.cookieFile) {
    const [user, ...rest] = readCookie(opts.cookieFile, side).split(':');
    return { header: basic(user!, rest.join(':')), source: `cookie ${opts.cookieFile}` };
  }
  if (opts.confFile) {
    let text: string;
    try {
      text = readTextBounded(opts.confFile, CONF_FILE_LIMIT);
    } catch (e) {
      throw new CompareError(`${side}: cannot read ${opts.confFile} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    const conf = parseConfFile(text, opts.confFile);
    const user = conf.get('rpcuser')?.at(-1);
    const password = conf.get('rpcpassword')?.at(-1);
    if (password) return { header: basic(user ?? '', password), source: `rpcuser/rpcpassword in ${opts.confFile}` };
    const cookieName = conf.get('rpccookiefile')?.at(-1) ?? '.cookie';
    const cookie = isAbsolute(cookieName) ? cookieName : join(dirname(opts.confFile), confNetworkDir(conf), cookieName);
    if (!existsSync(cookie)) {
      throw new CompareError(
        `${side}: ${opts.confFile} sets no rpcpassword and there is no cookie file at ${cookie} (is the node running?)`,
      );
    }
    const [cu, ...rest] = readCookie(cookie, side).split(':');
    return { header: basic(cu!, rest.join(':')), source: `cookie ${cookie}` };
  }
  return { header: null, source: 'no credentials' };
}
