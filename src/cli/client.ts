/**
 * `zecrpc-cli` (also `zecrpc cli`): zcash-cli v6.12.2 (src/bitcoin-cli.cpp) for zecrpc.
 *
 * - Options come before the method (`-datadir`, `-conf`, `-testnet`/`-regtest`, `-rpcconnect`,
 *   `-rpcport`, `-rpcuser`/`-rpcpassword` or the data directory's `.cookie`, `-rpcclienttimeout`,
 *   `-rpcwait`, `-stdin`); zcash.conf in the data directory supplies the ones not given.
 * - Words after the method become params through zcashd's conversion table (rpc-params.ts).
 * - A string result prints raw, null prints nothing, anything else as UniValue `write(2)`.
 * - An RPC error prints `error code: N` / `error message:` / the message on stderr and exits with
 *   |N| (the shell sees it modulo 256, as with zcash-cli); local and transport failures print
 *   `error: …` and exit 1.
 *
 * Deviation: zcash-cli refuses to run without a zcash.conf; like `zecrpc serve`, zecrpc-cli only
 * requires one when `-conf` names it.
 */
import { request } from 'node:http';
import { COOKIE_FILE_LIMIT, readTextBounded } from '../bounded-read.js';
import { assertDatadirExists, ConfigError, loadNodeConfig, parseZcashArgs, type NodeConfig } from '../config.js';
import { writePretty } from '../json/pretty.js';
import { parseJson } from '../json/reader.js';
import { JsonNumber, JsonObject, type JsonValue } from '../json/value.js';
import { REQUEST_TEXT_LIMIT } from '../rpc/http/body.js';
import { checkOptions, formatOptions, CLIENT_OPTIONS, isHelpFlag, isVersionFlag } from './options.js';
import { convertParams } from './rpc-params.js';
import { versionLine } from './version.js';

const DEFAULT_RPCCONNECT = '127.0.0.1';
const DEFAULT_HTTP_CLIENT_TIMEOUT = 900;
/** RPC_IN_WARMUP: with -rpcwait, zcash-cli keeps retrying while the server answers this. */
const RPC_IN_WARMUP = -28;

export interface ClientIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** All of standard input (for -stdin). */
  readStdin(): string;
}

const processIo: ClientIo = {
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  readStdin: () => readTextBounded(0, REQUEST_TEXT_LIMIT),
};

export function clientUsage(): string {
  return (
    `${versionLine('zecrpc-cli')}\n\n` +
    'Usage:\n' +
    '  zecrpc-cli [options] <command> [params]  Send command to zecrpc (or any zcashd)\n' +
    '  zecrpc-cli [options] help                List commands\n' +
    '  zecrpc-cli [options] help <command>      Get help for a command\n\n' +
    'Options:\n\n' +
    formatOptions(CLIENT_OPTIONS)
  );
}

/** A connection that never produced a reply (CConnectionFailed): retried with -rpcwait. */
class ConnectionFailed extends Error {}

interface HttpReply {
  status: number;
  body: string;
}

interface Endpoint {
  host: string;
  port: number;
  /** `user:password` for Basic authentication, looked up per call as zcash-cli does. */
  credentials: () => string;
  timeoutSeconds: number;
}

function postOnce(ep: Endpoint, body: string): Promise<HttpReply> {
  const authorization = `Basic ${Buffer.from(ep.credentials(), 'utf8').toString('base64')}`;
  return new Promise((resolve, reject) => {
    let timedOut = false;
    let connected = false;
    const failed = () => reject(new ConnectionFailed(connectFailure(timedOut, connected)));
    const req = request(
      {
        host: ep.host,
        port: ep.port,
        method: 'POST',
        path: '/',
        agent: false,
        headers: {
          Host: ep.host,
          Connection: 'close',
          Authorization: authorization,
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', failed);
      },
    );
    req.on('socket', (socket) => socket.once('connect', () => (connected = true)));
    if (ep.timeoutSeconds > 0) {
      req.setTimeout(ep.timeoutSeconds * 1000, () => {
        timedOut = true;
        req.destroy();
      });
    }
    req.on('error', failed);
    req.end(body);
  });
}

/**
 * libevent reports a connection that could not be made without an error code (zcash-cli prints
 * "unknown (code -1)"), a timeout as EVREQ_HTTP_TIMEOUT (0), and a connection the server closed
 * or reset before its reply was whole as EVREQ_HTTP_EOF (1).
 */
function connectFailure(timedOut: boolean, connected: boolean): string {
  const what = timedOut ? 'timeout reached (code 0)' : connected ? 'EOF reached (code 1)' : 'unknown (code -1)';
  return `couldn't connect to server: ${what}\n(make sure server is running and you are connecting to the correct RPC port)`;
}

/** CallRPC: the reply's `result` (ok) or its non-null `error`. Throws with zcash-cli's texts otherwise. */
async function callRpc(
  ep: Endpoint,
  method: string,
  params: JsonValue[],
): Promise<{ ok: true; result: JsonValue } | { ok: false; error: JsonValue }> {
  const requestObject = new JsonObject();
  requestObject.entries.push(['method', method], ['params', params], ['id', new JsonNumber('1')]);
  const reply = await postOnce(ep, writePretty(requestObject, 0) + '\n');
  if (reply.status === 401) throw new Error('incorrect rpcuser or rpcpassword (authorization failed)');
  if (reply.status >= 400 && reply.status !== 400 && reply.status !== 404 && reply.status !== 500) {
    throw new Error(`server returned HTTP error ${reply.status}`);
  }
  if (reply.body === '') throw new Error('no response from server');
  let parsed: JsonValue;
  try {
    parsed = parseJson(reply.body);
  } catch {
    throw new Error("couldn't parse reply from server");
  }
  if (!(parsed instanceof JsonObject)) throw new Error('JSON value is not an object as expected');
  if (parsed.entries.length === 0) throw new Error('expected reply to have result, error and id properties');
  const error = parsed.get('error') ?? null;
  return error === null ? { ok: true, result: parsed.get('result') ?? null } : { ok: false, error };
}

function credentials(config: NodeConfig): string {
  if (config.rpcPassword !== undefined) return `${config.rpcUser ?? ''}:${config.rpcPassword}`;
  try {
    // GetAuthCookie: the file's first line.
    return readTextBounded(config.rpcCookieFile, { ...COOKIE_FILE_LIMIT, firstLine: true });
  } catch {
    throw new Error(
      'Could not locate RPC credentials. No authentication cookie could be found,\n' +
        `and no rpcpassword is set in the configuration file (${config.confPath}).`,
    );
  }
}

/** UniValue getValStr of the error's code member (its token text for a number). */
function valStr(v: JsonValue): string {
  if (v instanceof JsonNumber) return v.text;
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? '1' : '0';
  return '';
}

function errorCodeOf(error: JsonValue): number {
  const code = error instanceof JsonObject ? error.get('code') : undefined;
  if (!(code instanceof JsonNumber) || !/^-?\d+$/.test(code.text)) throw new Error('JSON value is not an integer as expected');
  return Number(code.text);
}

/** Splits zcash-cli's argv: options up to the first word not starting with '-', then the command words. */
function splitArgs(argv: readonly string[]): { optionArgs: string[]; words: string[] } {
  let i = 0;
  while (i < argv.length && argv[i]!.startsWith('-')) i++;
  return { optionArgs: argv.slice(0, i), words: argv.slice(i) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs zecrpc-cli and returns its exit code. */
export async function runClient(argv: readonly string[], io: ClientIo = processIo): Promise<number> {
  const { optionArgs, words: commandWords } = splitArgs(argv);
  // AppInitRPC
  if (argv.length === 0 || optionArgs.some(isHelpFlag) || optionArgs.some(isVersionFlag)) {
    const versionOnly = optionArgs.some(isVersionFlag) && !optionArgs.some(isHelpFlag);
    io.stdout(versionOnly ? `${versionLine('zecrpc-cli')}\n` : clientUsage());
    if (argv.length === 0) {
      io.stderr('Error: too few parameters\n');
      return 1;
    }
    return 0;
  }
  let config: NodeConfig;
  try {
    const { options } = parseZcashArgs(optionArgs);
    checkOptions(options, 'cli');
    assertDatadirExists(optionArgs);
    config = loadNodeConfig(optionArgs);
    // After the file is read, as zcash-cli's GetBoolArg: `rpcssl=1` there counts, `-norpcssl` is no error.
    if (config.getBoolArg('rpcssl', false)) throw new ConfigError('Error: SSL mode for RPC (-rpcssl) is no longer supported.');
  } catch (e) {
    io.stderr(`${e instanceof ConfigError ? e.message : `Error: ${(e as Error).message}`}\n`);
    return 1;
  }

  // CommandLineRPC
  let out = '';
  let code = 0;
  try {
    const words = [...commandWords];
    if (config.getBoolArg('stdin', false)) {
      const text = io.readStdin();
      const lines = text.split('\n');
      if (lines.at(-1) === '') lines.pop();
      words.push(...lines);
    }
    if (words.length < 1) throw new Error('too few parameters (need at least command)');
    const method = words[0]!;
    const timeout = config.getArg('rpcclienttimeout');
    const ep: Endpoint = {
      host: config.getArg('rpcconnect') ?? DEFAULT_RPCCONNECT,
      port: config.rpcPort,
      credentials: () => credentials(config),
      timeoutSeconds: timeout === undefined ? DEFAULT_HTTP_CLIENT_TIMEOUT : Math.max(0, Number.parseInt(timeout, 10) || 0),
    };
    const converted = convertParams(method, words.slice(1));
    if ('failure' in converted) {
      let message = converted.failure.message;
      if (converted.failure.kind !== 'unknown-method') {
        // zcash-cli appends the server's help for the method, or the help call's error, each read
        // with get_str(): anything but a string (an error object, as zcashd answers `help` while
        // warming up) replaces the whole message with UniValue's type error.
        const help = await callRpc(ep, 'help', [method]);
        const text = help.ok ? help.result : help.error;
        if (typeof text !== 'string') throw new Error('JSON value is not a string as expected');
        message +=
          '\n\n' + (help.ok ? `Usage: ${text}` : `An error occurred while attempting to retrieve the help text for ${method}: ${text}`);
      }
      throw new Error(message);
    }
    const wait = config.getBoolArg('rpcwait', false);
    for (;;) {
      try {
        const reply = await callRpc(ep, method, converted.params);
        if (!reply.ok) {
          const rpcCode = errorCodeOf(reply.error);
          if (wait && rpcCode === RPC_IN_WARMUP) throw new ConnectionFailed('server in warmup');
          code = Math.abs(rpcCode);
          const err = reply.error as JsonObject;
          const errCode = err.get('code') ?? null;
          const errMsg = err.get('message');
          out = errCode === null ? '' : `error code: ${valStr(errCode)}\n`;
          if (typeof errMsg === 'string') out += `error message:\n${errMsg}`;
        } else {
          const r = reply.result;
          out = r === null ? '' : typeof r === 'string' ? r : writePretty(r, 2);
        }
        break;
      } catch (e) {
        if (e instanceof ConnectionFailed && wait) await sleep(1000);
        else throw e;
      }
    }
  } catch (e) {
    out = `error: ${(e as Error).message}`;
    code = 1;
  }
  if (out !== '') (code === 0 ? io.stdout : io.stderr)(`${out}\n`);
  return code;
}
