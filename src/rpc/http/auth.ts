/**
 * RPC authentication as zcashd v6.12.2 does it (src/httprpc.cpp, rpc-http-json.md §2):
 * cookie mode when no -rpcpassword is set, otherwise the single `rpcuser:rpcpassword`
 * credential, plus any number of `-rpcauth=user:salt$hash` entries (HMAC-SHA256 keyed by
 * the salt's bytes). Names, salts and passwords are compared and hashed as bytes, as zcashd's
 * strings are: the option's UTF-8 against the header's bytes.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { dirname, resolve, sep } from 'node:path';

export const COOKIE_USER = '__cookie__';

interface RpcAuthEntry {
  user: string;
  salt: string;
  hash: string;
}

/** `user:salt$hash`, split on any `:` or `$`; entries without exactly three fields are skipped (as zcashd). */
export function parseRpcAuth(entries: readonly string[]): RpcAuthEntry[] {
  const out: RpcAuthEntry[] = [];
  for (const e of entries) {
    const fields = e.split(/[:$]/);
    if (fields.length !== 3) continue;
    out.push({ user: fields[0]!, salt: fields[1]!, hash: fields[2]! });
  }
  return out;
}

const B64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64_VALUE[B64_ALPHABET.charCodeAt(i)] = i;

/**
 * zcashd's DecodeBase64: the longest prefix of standard-alphabet characters, 6 bits each,
 * incomplete trailing bits dropped; never fails.
 */
export function lenientBase64Decode(s: string): Buffer {
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? B64_VALUE[c]! : -1;
    if (v < 0) break;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

const C_SPACE = /^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g;

export interface Authenticator {
  /** True iff the Authorization header value grants access. */
  check(authorization: string): boolean;
  /** The cookie file, in cookie mode. */
  readonly cookieFile: string | null;
  /**
   * Writes the cookie file (cookie mode; nothing otherwise). Called once the server listens, as
   * zcashd binds before it writes its cookie: a server that cannot bind (another node holds the
   * port) must not replace that node's cookie.
   */
  writeCookie(): void;
  /** Removes the cookie file if it still holds this server's cookie (clean shutdown, failed start). */
  removeCookie(): void;
}

function equalBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The check for the header every client of a credential sends, `Basic ` and the standard
 * base64 of `credential`, without decoding it: the header's characters are compared with that
 * text in constant time, every one of them whatever the others hold (no early exit, no branch on
 * a character), with no buffer written per request. What it does not grant goes the whole way
 * (spaces, other padding, -rpcauth users), so the verdicts are those of the full check. Only the
 * header's length decides whether it is compared here, and the credential's length is no secret
 * of the full check either (a decoded value of another length is refused without a comparison).
 */
function exactHeaderCheck(credential: Buffer): (authorization: string) => boolean {
  const expected = `Basic ${credential.toString('base64')}`;
  const length = expected.length;
  return (authorization) => {
    if (authorization.length !== length) return false;
    // UTF-16 code units: a character beyond Latin-1 differs from any of the expected text.
    let difference = 0;
    for (let i = 0; i < length; i++) difference |= authorization.charCodeAt(i) ^ expected.charCodeAt(i);
    return difference === 0;
  };
}

export interface AuthOptions {
  rpcUser: string | undefined;
  rpcPassword: string | undefined;
  rpcAuth: readonly string[];
  cookieFile: string;
  /** Directories the cookie must not be written into (the chain store's). */
  protectedDirs?: readonly string[];
}

/** Why a cookie must not be written at `path`, or null. */
function cookiePathRefusal(path: string, protectedDirs: readonly string[]): string | null {
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const dir = real(dirname(path));
  for (const p of protectedDirs) {
    const guarded = real(p);
    if (dir === guarded || dir.startsWith(guarded + sep)) return `it lies in the chain store (${p})`;
  }
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch {
    return null; // nothing there yet
  }
  if (!st.isFile()) return 'something other than a regular file is there';
  const head = Buffer.alloc(COOKIE_USER.length + 1);
  try {
    const fd = openSync(path, 'r');
    try {
      readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    return `the file there cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  return head.toString('latin1') === `${COOKIE_USER}:` ? null : 'a file that is not an RPC cookie is there';
}

/**
 * Builds the credential check. In cookie mode the path is checked and a fresh secret made now
 * (`__cookie__:<base64 of 32 random bytes>`, no newline); `writeCookie` writes it, via a
 * temporary file and a rename, readable by the owner only.
 */
export function createAuthenticator(opts: AuthOptions): Authenticator {
  let credential: Buffer;
  let cookieFile: string | null = null;
  let written = false;
  if (opts.rpcPassword === undefined || opts.rpcPassword === '') {
    // zcashd renames its cookie over whatever the path names and deletes it at shutdown: pointed
    // at LevelDB's CURRENT or zcash.conf (or, as root, a device), that destroys it. zecrpc
    // replaces only a cookie (a stale one, or that of a node it will fail to bind beside, which
    // it then never writes over), and never writes into the chain store.
    const refusal = cookiePathRefusal(opts.cookieFile, opts.protectedDirs ?? []);
    if (refusal) throw new Error(`Refusing to write the RPC cookie file ${opts.cookieFile}: ${refusal} (choose another -rpccookiefile)`);
    cookieFile = opts.cookieFile;
    credential = Buffer.from(`${COOKIE_USER}:${randomBytes(32).toString('base64')}`, 'utf8');
  } else {
    credential = Buffer.from(`${opts.rpcUser ?? ''}:${opts.rpcPassword}`, 'utf8');
  }
  const writeCookie = (): void => {
    if (cookieFile === null || written) return;
    const tmp = `${cookieFile}.tmp`;
    // Never write through whatever sits at the temporary name (a planted symlink would make us
    // overwrite its target): remove it, then create the file exclusively, which fails rather
    // than follow a link that reappears in between. The rename replaces `.cookie` itself.
    try {
      rmSync(tmp, { force: true });
      writeFileSync(tmp, credential, { mode: 0o600, flag: 'wx' });
      chmodSync(tmp, 0o600);
      renameSync(tmp, cookieFile);
    } catch (e) {
      // zcashd's words (GenerateAuthCookie's log line), with the reason
      const reason = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      throw new Error(`Unable to open cookie authentication file ${tmp} for writing (${reason})`);
    }
    written = true;
  };
  /** Whether the cookie file still holds this server's secret (another node may have replaced it since). */
  const stillOurs = (path: string): boolean => {
    try {
      return equalBytes(readFileSync(path), credential);
    } catch {
      return false;
    }
  };
  const rpcAuth = parseRpcAuth(opts.rpcAuth).map((e) => ({
    user: Buffer.from(e.user, 'utf8'),
    salt: Buffer.from(e.salt, 'utf8'),
    hash: e.hash,
  }));

  const exact = exactHeaderCheck(credential);

  return {
    cookieFile,
    check(authorization) {
      if (exact(authorization)) return true;
      if (!authorization.startsWith('Basic ')) return false;
      const decoded = lenientBase64Decode(authorization.slice(6).replace(C_SPACE, ''));
      if (equalBytes(decoded, credential)) return true;
      // zcashd's multiUserAuthorized refuses a value without a colon before anything else.
      const colon = decoded.indexOf(0x3a);
      if (colon < 0) return false;
      const user = decoded.subarray(0, colon);
      const password = decoded.subarray(colon + 1);
      for (const e of rpcAuth) {
        if (!e.user.equals(user)) continue;
        const mac = createHmac('sha256', e.salt).update(password).digest('hex');
        if (mac === e.hash) return true;
      }
      return false;
    },
    writeCookie,
    removeCookie() {
      if (cookieFile && written && stillOurs(cookieFile)) rmSync(cookieFile, { force: true });
    },
  };
}
