import { exec } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNodeConfig } from '../../src/config.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { getStr } from '../../src/json/getters.js';
import { quoteJsonString } from '../../src/json/writer.js';
import type { RpcMethod } from '../../src/rpc/method.js';
import { decodeRawTransaction } from '../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { startRpcServer, type RunningRpcServer } from '../../src/rpc/http/server.js';
import { createAuthenticator } from '../../src/rpc/http/auth.js';
import { readHexVector } from '../support/vectors.js';
import { largeTextMethod } from '../support/http-rpc.js';

/** Test-only methods: a fixed-count method for parameter errors, and a slow one for concurrency. */
const echo: RpcMethod = {
  name: 'echo',
  category: 'util',
  required: 1,
  optional: 1,
  help: 'echo "text" ( "more" )\n\nEchoes its first parameter.\n',
  call: (params) => quoteJsonString(getStr(params[0]!)),
};
const slow: RpcMethod = {
  name: 'slow',
  category: 'util',
  required: 0,
  optional: 0,
  help: 'slow\n',
  call: () => new Promise((r) => setTimeout(() => r('"done"'), 400)),
};

interface RawReply {
  statusLine: string;
  headers: [string, string][];
  body: string;
}

/** Sends raw bytes over TCP and parses one HTTP reply (Content-Length framed or until close). */
function rawRequest(port: number, bytes: string | Buffer): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    const tryParse = (final: boolean) => {
      const sep = buf.indexOf('\r\n\r\n');
      if (sep < 0) return final ? reject(new Error('no reply')) : undefined;
      const head = buf.subarray(0, sep).toString('latin1').split('\r\n');
      const headers = head.slice(1).map((l) => {
        const i = l.indexOf(':');
        return [l.slice(0, i), l.slice(i + 1).trim()] as [string, string];
      });
      const len = headers.find(([k]) => k.toLowerCase() === 'content-length');
      const body = buf.subarray(sep + 4);
      if (len && body.length >= Number(len[1])) {
        sock.destroy();
        resolve({ statusLine: head[0]!, headers, body: body.subarray(0, Number(len[1])).toString('utf8') });
      } else if (final) resolve({ statusLine: head[0]!, headers, body: body.toString('utf8') });
    };
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      tryParse(false);
    });
    sock.on('end', () => tryParse(true));
    sock.on('error', reject);
    sock.write(bytes);
  });
}

const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');

function post(port: number, body: string, auth: string | null = AUTH, extra = ''): Promise<RawReply> {
  const len = Buffer.byteLength(body);
  return rawRequest(
    port,
    `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth === null ? '' : `Authorization: ${auth}\r\n`}${extra}Content-Length: ${len}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A reply header by name, case aside (Node writes Fastify's header names in lower case). */
const header = (r: RawReply, name: string) => r.headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/;
const LIBEVENT_PAGE = (status: number, reason: string) =>
  `<HTML><HEAD>\n<TITLE>${status} ${reason}</TITLE>\n</HEAD><BODY>\n<H1>${reason}</H1>\n</BODY></HTML>\n`;

let dir: string;
let server: RunningRpcServer;
let port: number;
const rpcauthSalt = 'cb77f0957de88ff388cf817ddbc7273';
const rpcauthHash = createHmac('sha256', rpcauthSalt).update('bobpass').digest('hex');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-rpc-'));
  const config = loadNodeConfig([
    `-datadir=${dir}`,
    '-rpcport=0',
    '-rpcuser=alice',
    '-rpcpassword=secret',
    `-rpcauth=bob:${rpcauthSalt}$${rpcauthHash}`,
  ]);
  server = await startRpcServer({ config, methods: [decodeRawTransaction, echo, slow] });
  port = server.port;
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('envelope (rpc-http-json.md §3.7)', () => {
  const cases: [string, number, string][] = [
    ['', 500, '{"result":null,"error":{"code":-32700,"message":"Parse error"},"id":null}'],
    ['{"method":"help"', 500, '{"result":null,"error":{"code":-32700,"message":"Parse error"},"id":null}'],
    ['42', 500, '{"result":null,"error":{"code":-32700,"message":"Top-level object parse error"},"id":null}'],
    ['"x"', 500, '{"result":null,"error":{"code":-32700,"message":"Top-level object parse error"},"id":null}'],
    ['{}', 400, '{"result":null,"error":{"code":-32600,"message":"Missing method"},"id":null}'],
    ['{"id":7,"method":5}', 400, '{"result":null,"error":{"code":-32600,"message":"Method must be a string"},"id":7}'],
    ['{"id":7,"method":"help","params":{}}', 400, '{"result":null,"error":{"code":-32600,"message":"Params must be an array"},"id":7}'],
    ['{"id":1,"method":"nosuch"}', 404, '{"result":null,"error":{"code":-32601,"message":"Method not found"},"id":1}'],
    ['{"id":1,"method":"getbalance"}', 404, '{"result":null,"error":{"code":-32601,"message":"Method not found"},"id":1}'],
    [
      '{"id":1,"method":"echo","params":[100]}',
      500,
      '{"result":null,"error":{"code":-1,"message":"JSON value is not a string as expected"},"id":1}',
    ],
    ['{"id":1.50,"method":"echo","params":["a"]}', 200, '{"result":"a","error":null,"id":1.50}'],
    ['{"id":1E5,"method":"echo","params":["a"],"id":2}', 200, '{"result":"a","error":null,"id":1E5}'],
    ['{"method":"echo","method":"stop","params":["first wins"]}', 200, '{"result":"first wins","error":null,"id":null}'],
    [
      '[{"id":1,"method":"echo","params":["x"]},5,{"id":"x","method":"nosuch"}]',
      200,
      '[{"result":"x","error":null,"id":1},{"result":null,"error":{"code":-32600,"message":"Invalid Request object"},"id":null},{"result":null,"error":{"code":-32601,"message":"Method not found"},"id":"x"}]',
    ],
    ['[]', 200, '[]'],
  ];
  for (const [body, status, reply] of cases) {
    it(`${body || '(empty body)'} → ${status}`, async () => {
      const r = await post(port, body);
      expect(r.statusLine).toBe(
        `HTTP/1.1 ${status} ${{ 200: 'OK', 400: 'Bad Request', 404: 'Not Found', 500: 'Internal Server Error' }[status]}`,
      );
      expect(r.body).toBe(reply + '\n');
      expect(header(r, 'Content-Type')).toBe('application/json');
      expect(header(r, 'Date')).toMatch(HTTP_DATE);
      expect(Number(header(r, 'Content-Length'))).toBe(Buffer.byteLength(reply) + 1);
    });
  }

  it('parameter-count errors carry zcashd’s text and the method help', async () => {
    const none = await post(port, '{"id":1,"method":"echo","params":[]}');
    expect(none.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(none.body).toBe(
      '{"result":null,"error":{"code":-32602,"message":"Not enough parameters for method `echo`. Needed at least 1 and at most 2, but received 0\\n\\necho \\"text\\" ( \\"more\\" )\\n\\nEchoes its first parameter.\\n"},"id":1}\n',
    );
    const many = await post(port, '{"id":1,"method":"decoderawtransaction","params":["00","00"]}');
    expect(many.body).toContain(
      '"message":"Too many parameters for method `decoderawtransaction`. Needed exactly 1, but received 2\\n\\ndecoderawtransaction \\"hexstring\\"\\n',
    );
  });

  it('answers a 1000-request batch in order with HTTP 200', async () => {
    const items = Array.from({ length: 1000 }, (_, i) =>
      i % 2 ? `{"id":${i},"method":"echo","params":["${i}"]}` : `{"id":${i},"method":"nosuch"}`,
    );
    const r = await post(port, `[${items.join(',')}]`);
    expect(r.statusLine).toBe('HTTP/1.1 200 OK');
    const replies = JSON.parse(r.body) as { id: number; result: string | null }[];
    expect(replies.length).toBe(1000);
    expect(replies[999]).toEqual({ result: '999', error: null, id: 999 });
    expect(replies[0]).toEqual({ result: null, error: { code: -32601, message: 'Method not found' }, id: 0 });
  });

  it('decoderawtransaction of a real v5 transaction equals the library output', async () => {
    const tx = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex')).transactions.find((t) => t.data.orchard)!;
    const r = await post(port, `{"jsonrpc":"1.0","id":"curltest","method":"decoderawtransaction","params":["${toHex(tx.bytes)}"]}`);
    expect(r.statusLine).toBe('HTTP/1.1 200 OK');
    expect(r.body.startsWith(`{"result":{"txid":"${tx.txidHex}","authdigest":`)).toBe(true);
    expect(r.body.endsWith('},"error":null,"id":"curltest"}\n')).toBe(true);
  });
});

describe('HTTP pipeline (§1.2)', () => {
  it('401 without Authorization, with zcashd’s realm and libevent’s Content-Type', async () => {
    const r = await post(port, '{}', null);
    expect(r.statusLine).toBe('HTTP/1.1 401 Unauthorized');
    expect(r.body).toBe('');
    expect(header(r, 'WWW-Authenticate')).toBe('Basic realm="jsonrpc"');
    expect(header(r, 'Content-Type')).toBe('text/html; charset=ISO-8859-1');
    expect(header(r, 'Content-Length')).toBe('0');
  });

  it('wrong, malformed or non-Basic credentials are refused after the penalty delay', async () => {
    for (const auth of ['Basic ' + Buffer.from('alice:wrong').toString('base64'), 'basic ' + AUTH.slice(6), 'Bearer abc', 'Basic !!!']) {
      const t0 = Date.now();
      const r = await post(port, '{"id":1,"method":"echo","params":["x"]}', auth);
      expect(r.statusLine).toBe('HTTP/1.1 401 Unauthorized');
      expect(Date.now() - t0).toBeGreaterThanOrEqual(240);
    }
  });

  it('accepts lenient base64 (trailing garbage ignored), surrounding whitespace, and -rpcauth', async () => {
    const lenient = 'Basic ' + Buffer.from('alice:secret').toString('base64').replace(/=+$/, '') + '!!!';
    expect((await post(port, '{"id":1,"method":"echo","params":["x"]}', lenient)).statusLine).toBe('HTTP/1.1 200 OK');
    expect((await post(port, '{"id":1,"method":"echo","params":["x"]}', `Basic   ${AUTH.slice(6)}  `)).statusLine).toBe('HTTP/1.1 200 OK');
    const bob = 'Basic ' + Buffer.from('bob:bobpass').toString('base64');
    expect((await post(port, '{"id":1,"method":"echo","params":["x"]}', bob)).body).toBe('{"result":"x","error":null,"id":1}\n');
  });

  it('404 for any path but /, 405 for DELETE and GET, 501 for unknown methods', async () => {
    for (const path of ['/?x', '//', '/wallet/foo']) {
      const r = await rawRequest(
        port,
        `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
      expect(r.statusLine).toBe('HTTP/1.1 404 Not Found');
      expect(r.body).toBe('');
    }
    const del = await rawRequest(port, `DELETE /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(del.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(del.body).toBe('');
    const get = await rawRequest(port, `GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(get.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(get.body).toBe('JSONRPC server handles only POST requests');
    const options = await rawRequest(port, `OPTIONS / HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(options.statusLine).toBe('HTTP/1.1 501 Not Implemented');
    expect(options.body).toBe(LIBEVENT_PAGE(501, 'Not Implemented'));
    expect(header(options, 'Content-Type')).toBe('text/html; charset=ISO-8859-1');
  });

  it('answers request headers over 8 KiB with llhttp’s 431, in libevent’s page, and closes', async () => {
    const r = await rawRequest(port, `POST / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(9000)}\r\n\r\n`);
    expect(r.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(header(r, 'Connection')).toBe('close');
    expect(r.body).toBe(LIBEVENT_PAGE(431, 'Request Header Fields Too Large'));
  });

  it('reads a request head as llhttp does (deviations from libevent: the http-… entries of compat/deviations.ts)', async () => {
    const echo = '{"id":1,"method":"echo","params":["x"]}';
    const request = (headers: string, body = echo) =>
      rawRequest(port, `POST / HTTP/1.1\r\nHost: x\r\n${headers}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    const badRequest = async (reply: Promise<RawReply>) => {
      const r = await reply;
      expect([r.statusLine, header(r, 'Connection'), r.body]).toEqual([
        'HTTP/1.1 400 Bad Request',
        'close',
        LIBEVENT_PAGE(400, 'Bad Request'),
      ]);
    };
    // An empty line before the request line is skipped (RFC 9112 §2.2).
    const leading = await rawRequest(
      port,
      `\r\nPOST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${echo.length}\r\n\r\n${echo}`,
    );
    expect(leading.body).toBe('{"result":"x","error":null,"id":1}\n');
    // Spaces and tabs around a value are not part of it.
    expect((await request(`Authorization:\t${AUTH}\r\n`)).statusLine).toBe('HTTP/1.1 200 OK');
    expect((await request(`Authorization:   ${AUTH} \t \r\n`)).statusLine).toBe('HTTP/1.1 200 OK');
    // A NUL or bare CR in a value, an empty name, a signed or repeated length, a length beside
    // chunking, and a lower-case method are refused: each is a way to smuggle a request.
    await badRequest(request(`Authorization: ${AUTH}\0junk\r\n`));
    await badRequest(request(`: nameless\r\nAuthorization: ${AUTH}\r\n`));
    await badRequest(request(`X-A: a\rb\r\nAuthorization: ${AUTH}\r\n`));
    await badRequest(rawRequest(port, `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: +2\r\n\r\n{}`));
    await badRequest(
      rawRequest(port, `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`),
    );
    await badRequest(
      rawRequest(
        port,
        `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      ),
    );
    await badRequest(rawRequest(port, `post / HTTP/1.1\r\nHost: x\r\n\r\n`));
    // An empty body is the empty body's parse error, with no 100 Continue first.
    const empty = await request(`Authorization: ${AUTH}\r\nExpect: 100-continue\r\n`, '');
    expect(empty.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    const head = await rawRequest(port, `HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(head.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
  });

  it('rejects a body over 32 MiB with 413 and keeps serving', async () => {
    const r = await rawRequest(port, `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${0x02000001}\r\n\r\n{`);
    expect(r.statusLine).toBe('HTTP/1.1 413 Request Entity Too Large');
    expect(r.body).toBe(LIBEVENT_PAGE(413, 'Request Entity Too Large'));
    expect((await post(port, '{"id":1,"method":"echo","params":["still here"]}')).body).toBe(
      '{"result":"still here","error":null,"id":1}\n',
    );
  });

  it('survives clients that disconnect mid-request or send slowly', async () => {
    await new Promise<void>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        s.write(`POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: 100\r\n\r\n{"id":`);
        s.destroy();
        resolve();
      });
    });
    const slowClient = connect(port, '127.0.0.1');
    slowClient.write('POST / HTTP/1.1\r\nHost: x\r\n');
    const r = await post(port, '{"id":2,"method":"echo","params":["ok"]}');
    expect(r.body).toBe('{"result":"ok","error":null,"id":2}\n');
    slowClient.destroy();
  });

  it('serves requests concurrently: a slow method does not hold up others', async () => {
    const order: string[] = [];
    const slowReply = post(port, '{"id":1,"method":"slow"}').then((r) => (order.push('slow'), r));
    const fast = await post(port, '{"id":2,"method":"echo","params":["fast"]}').then((r) => (order.push('fast'), r));
    expect(fast.body).toBe('{"result":"fast","error":null,"id":2}\n');
    expect((await slowReply).body).toBe('{"result":"done","error":null,"id":1}\n');
    expect(order).toEqual(['fast', 'slow']);
  });
});

describe('clients', () => {
  it('curl exactly as in zcashd’s help', async () => {
    const { stdout } = await promisify(exec)(
      `curl -s --user alice:secret --data-binary '{"jsonrpc":"1.0","id":"curltest","method":"help","params":["echo"]}' -H 'content-type: text/plain;' http://127.0.0.1:${port}/`,
    );
    expect(stdout).toBe('{"result":"echo \\"text\\" ( \\"more\\" )\\n\\nEchoes its first parameter.\\n","error":null,"id":"curltest"}\n');
  });

  it('the bitcoin-core npm client', async () => {
    const require = createRequire(import.meta.url);
    const Client = require('bitcoin-core') as new (o: object) => { command(...a: unknown[]): Promise<unknown> };
    const client = new Client({
      host: `http://127.0.0.1:${port}`,
      username: 'alice',
      password: 'secret',
      logger: { debug() {}, info() {}, error() {}, warn() {} },
    });
    expect(await client.command('echo', 'hello')).toBe('hello');
    const help = (await client.command('help')) as string;
    expect(help).toBe(
      '== Control ==\nhelp ( "command" )\nstop\n\n== Rawtransactions ==\ndecoderawtransaction "hexstring"\n\n== Util ==\necho "text" ( "more" )\nslow',
    );
    await expect(client.command('nosuch')).rejects.toThrow(/Method not found/);
  });
});

describe('a client that half-closes after its request', () => {
  it('still gets the reply, as from zcashd, which reads nothing more while the request runs', async () => {
    const body = '{"id":1,"method":"slow"}';
    const reply = await new Promise<string>((resolve) => {
      let data = '';
      const sock = connect(port, '127.0.0.1', () => {
        sock.write(`POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
        sock.end(); // our FIN, while the 400 ms method runs
      });
      sock.on('data', (c: Buffer) => (data += c.toString('latin1')));
      sock.on('close', () => resolve(data));
    });
    expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(reply.endsWith('\r\n\r\n{"result":"done","error":null,"id":1}\n')).toBe(true);
  });
});

describe('chunked request bodies, read as libevent reads them', () => {
  /** Sends `parts` 50 ms apart on one connection; resolves with everything the server answered. */
  const sendParts = (port: number, parts: string[]) =>
    new Promise<string>((resolve) => {
      let data = '';
      const sock = connect(port, '127.0.0.1', async () => {
        for (const part of parts) {
          sock.write(part);
          await new Promise((r) => setTimeout(r, 50));
        }
      });
      sock.on('data', (c: Buffer) => {
        data += c.toString('latin1');
        if (data.includes('\n{') && data.endsWith('\n')) sock.end();
      });
      sock.on('close', () => resolve(data));
    });
  const body = '{"id":1,"method":"echo","params":["chunked"]}';
  const head = `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n`;
  const chunk = `${body.length.toString(16)}\r\n${body}`;

  it('reads chunk sizes as llhttp does: hexadecimal digits and extensions; anything else is 400 and the connection closes', async () => {
    const hex = body.length.toString(16);
    const status = (reply: string) => reply.split('\r\n')[0];
    for (const size of [hex, `${hex};ext=1`, hex.toUpperCase()]) {
      expect(status(await sendParts(port, [`${head}${size}\r\n${body}\r\n0\r\n\r\n`]))).toBe('HTTP/1.1 200 OK');
    }
    // libevent's strtoll read these; llhttp refuses them (deviations.ts).
    for (const size of [`0x${hex}`, `  ${hex}`, `+${hex}`, '-1', 'zz']) {
      const reply = await sendParts(port, [`${head}${size}\r\n${body}\r\n0\r\n\r\n`]);
      expect(reply).toBe(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\nConnection: close\r\nContent-Length: 94\r\n\r\n${LIBEVENT_PAGE(400, 'Bad Request')}`,
      );
    }
  });

  it('sends one reply to a request whose chunked body is malformed: no second page', async () => {
    const refused = `POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`;
    const reply = await sendParts(port, [refused]);
    expect(reply.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(reply.startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
    // Refused from its head first, the body malformed later: the 401 alone.
    const later = await sendParts(port, [`POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n`, 'zz\r\n']);
    expect(later.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(later.startsWith('HTTP/1.1 401 Unauthorized\r\n')).toBe(true);
  });

  it('takes a body whose line ends are split across packets, the CR in one and the LF in the next', async () => {
    for (const parts of [
      [head + chunk + '\r\n0\r\n\r\n'],
      [head + chunk + '\r', '\n0\r\n\r\n'],
      [head + chunk, '\r', '\n0\r', '\n\r', '\n'],
    ]) {
      const reply = await sendParts(port, parts);
      expect([reply.split('\r\n')[0], reply.slice(reply.indexOf('\r\n\r\n') + 4)]).toEqual([
        'HTTP/1.1 200 OK',
        '{"result":"chunked","error":null,"id":1}\n',
      ]);
    }
  });
});

describe('-rpcauth compared as zcashd compares it: bytes (httprpc.cpp multiUserAuthorized)', () => {
  const hmac = (salt: string, password: string) => createHmac('sha256', Buffer.from(salt, 'utf8')).update(password, 'utf8').digest('hex');
  const basic = (userPass: string) => 'Basic ' + Buffer.from(userPass, 'utf8').toString('base64');
  const auth = createAuthenticator({
    rpcUser: 'alice',
    rpcPassword: 'secret',
    rpcAuth: [`jösé:c0ffee$${hmac('c0ffee', 'pässwort')}`, `bob:sälz$${hmac('sälz', 'secret')}`, `carol:s$${hmac('s', 'carol')}`],
    cookieFile: '/nonexistent/.cookie', // not written: a password is set
  });

  it('accepts names, salts and passwords outside ASCII, as their UTF-8 bytes', () => {
    expect(auth.check(basic('jösé:pässwort'))).toBe(true);
    expect(auth.check(basic('bob:secret'))).toBe(true);
    expect(auth.check(basic('jösé:passwort'))).toBe(false);
    expect(auth.check(basic('jose:pässwort'))).toBe(false);
    // the same characters as latin-1 bytes are other bytes
    expect(auth.check('Basic ' + Buffer.from('jösé:pässwort', 'latin1').toString('base64'))).toBe(false);
  });

  it('refuses a value without a colon, as zcashd’s multiUserAuthorized does first', () => {
    expect(auth.check(basic('carol'))).toBe(false); // its HMAC as the password would match: still refused
    expect(auth.check(basic('carol:carol'))).toBe(true);
  });
});

describe('memory options', () => {
  it('take MiB from 1 to 2^31 − 1, and name a value outside', async () => {
    const d = mkdtempSync(join(tmpdir(), 'zecrpc-memory-options-'));
    const start = (...args: string[]) =>
      startRpcServer({ config: loadNodeConfig([`-datadir=${d}`, '-rpcport=0', '-regtest', ...args]), methods: [echo] });
    for (const name of ['rpcrequestmemory', 'rpcmemory', 'rpcbodymemory']) {
      for (const v of ['2147483648', '99999999999999999999', '0']) {
        await expect(start(`-${name}=${v}`)).rejects.toThrow(`Invalid value for -${name}: '${v}' (expected MiB from 1 to 2147483647)`);
      }
    }
    const s = await start('-rpcrequestmemory=2147483647', '-rpcmemory=2147483647', '-rpcbodymemory=2147483647');
    const r = await post(
      s.port,
      '{"id":1,"method":"echo","params":["m"]}',
      'Basic ' + Buffer.from(readFileSync(s.cookieFile!, 'utf8')).toString('base64'),
    );
    expect(r.body).toBe('{"result":"m","error":null,"id":1}\n');
    await s.close();
    rmSync(d, { recursive: true, force: true });
  });
});

describe('cookie authentication', () => {
  it('writes a 0600 __cookie__ file that authenticates, and removes it on shutdown', async () => {
    const d = mkdtempSync(join(tmpdir(), 'zecrpc-cookie-'));
    const s = await startRpcServer({ config: loadNodeConfig([`-datadir=${d}`, '-rpcport=0', '-regtest']), methods: [echo] });
    const file = join(d, 'regtest', '.cookie');
    expect(s.cookieFile).toBe(file);
    const cookie = readFileSync(file, 'utf8');
    expect(cookie).toMatch(/^__cookie__:[A-Za-z0-9+/]{43}=$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const r = await post(s.port, '{"id":1,"method":"echo","params":["c"]}', 'Basic ' + Buffer.from(cookie).toString('base64'));
    expect(r.body).toBe('{"result":"c","error":null,"id":1}\n');
    await s.close();
    expect(existsSync(file)).toBe(false);
    rmSync(d, { recursive: true, force: true });
  });
});

describe('cookie file path', () => {
  it('replaces only a stale cookie: never a file of another kind, nor anything in the chain store', async () => {
    const d = mkdtempSync(join(tmpdir(), 'zecrpc-cookie-path-'));
    const net = join(d, 'regtest');
    const start = (cookie: string) =>
      startRpcServer({ config: loadNodeConfig([`-datadir=${d}`, '-rpcport=0', '-regtest', `-rpccookiefile=${cookie}`]), methods: [echo] });
    mkdirSync(join(net, 'zecrpc', 'index'), { recursive: true });
    writeFileSync(join(net, 'zecrpc', 'index', 'CURRENT'), 'MANIFEST-000004\n');
    writeFileSync(join(net, 'zcash.conf'), 'rpcuser=alice\n');
    const refused = (path: string, why: string) => `Refusing to write the RPC cookie file ${path}: ${why} (choose another -rpccookiefile)`;
    await expect(start('zecrpc/index/CURRENT')).rejects.toThrow(
      refused(join(net, 'zecrpc/index/CURRENT'), `it lies in the chain store (${join(net, 'zecrpc')})`),
    );
    await expect(start('zecrpc/new-file')).rejects.toThrow(
      refused(join(net, 'zecrpc/new-file'), `it lies in the chain store (${join(net, 'zecrpc')})`),
    );
    await expect(start('zcash.conf')).rejects.toThrow(refused(join(net, 'zcash.conf'), 'a file that is not an RPC cookie is there'));
    await expect(start(d)).rejects.toThrow(refused(d, 'something other than a regular file is there'));
    expect(readFileSync(join(net, 'zecrpc', 'index', 'CURRENT'), 'utf8')).toBe('MANIFEST-000004\n');
    expect(readFileSync(join(net, 'zcash.conf'), 'utf8')).toBe('rpcuser=alice\n');
    await expect(start(join(d, 'missing', 'c'))).rejects.toThrow(
      `Unable to open cookie authentication file ${join(d, 'missing', 'c')}.tmp for writing (ENOENT)`,
    );
    // a cookie left by a server that did not stop cleanly is replaced, and removed at shutdown
    writeFileSync(join(net, 'old.cookie'), '__cookie__:stale');
    const s = await start('old.cookie');
    expect(readFileSync(join(net, 'old.cookie'), 'utf8')).toMatch(/^__cookie__:[A-Za-z0-9+/]{43}=$/);
    await s.close();
    expect(existsSync(join(net, 'old.cookie'))).toBe(false);
    rmSync(d, { recursive: true, force: true });
  });
});

describe('logging', () => {
  it('writes structured request logs that never contain credentials', async () => {
    const d = mkdtempSync(join(tmpdir(), 'zecrpc-log-'));
    const lines: string[] = [];
    const stream = { write: (s: string) => void lines.push(s) };
    const s = await startRpcServer({
      config: loadNodeConfig([`-datadir=${d}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=s3cret-pw']),
      methods: [echo],
      logger: { level: 'info', stream },
    });
    const auth = 'Basic ' + Buffer.from('alice:s3cret-pw').toString('base64');
    await post(s.port, '{"id":1,"method":"echo","params":["x"]}', auth);
    await post(s.port, '{"id":1,"method":"echo","params":["x"]}', 'Basic ' + Buffer.from('alice:wrong-pw').toString('base64'));
    await s.close();
    rmSync(d, { recursive: true, force: true });
    const text = lines.join('');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = entries.filter((e) => e.msg === 'request completed');
    expect(requests.length).toBe(2);
    expect(requests[0]).toMatchObject({ rpc: { method: 'echo', id: '1' }, statusCode: 200, bytes: 35, remoteAddress: '127.0.0.1' });
    expect(requests[0]!.ms).toBeTypeOf('number');
    expect(requests[1]).toMatchObject({ rpc: null, statusCode: 401, bytes: 0 });
    for (const secret of ['s3cret-pw', 'wrong-pw', auth.slice(6), 'Basic ']) expect(text).not.toContain(secret);
  });
});

describe('-rpcservertimeout', () => {
  /** Runs `test` against a server with a 1 s `-rpcservertimeout`, then stops it. */
  async function withTimeoutServer(methods: RpcMethod[], test: (s: RunningRpcServer) => Promise<void>): Promise<void> {
    const d = mkdtempSync(join(tmpdir(), 'zecrpc-timeout-'));
    const s = await startRpcServer({
      config: loadNodeConfig([`-datadir=${d}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=secret', '-rpcservertimeout=1']),
      methods,
    });
    try {
      await test(s);
    } finally {
      await s.close();
      rmSync(d, { recursive: true, force: true });
    }
  }

  /** A reply far larger than the kernel's socket buffers hold, so its writing waits on the client. */
  const REPLY_TEXT_BYTES = 16 * 1024 * 1024;
  const large = largeTextMethod(REPLY_TEXT_BYTES);

  /**
   * Sends `large` and reads the reply `burst` bytes at a time with `pauseMs` between bursts. After
   * `stopAfter` bytes it stops reading for `stopMs` (a paused socket does not see the server close
   * it), then reads what is left. Resolves with the bytes received and when the data ended.
   */
  function readLarge(port: number, burst: number, pauseMs: number, stopAfter = Infinity, stopMs = 0) {
    return new Promise<{ bytes: number; lastDataMs: number; closedMs: number }>((resolve) => {
      const t0 = Date.now();
      let bytes = 0;
      let inBurst = 0;
      let lastDataMs = 0;
      const body = '{"id":1,"method":"large"}';
      const sock = connect(port, '127.0.0.1', () =>
        sock.write(`POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${body.length}\r\n\r\n${body}`),
      );
      sock.on('data', (c: Buffer) => {
        bytes += c.length;
        inBurst += c.length;
        lastDataMs = Date.now() - t0;
        if (bytes >= REPLY_TEXT_BYTES) sock.end();
        else if (bytes >= stopAfter && stopAfter > 0) {
          stopAfter = 0;
          sock.pause();
          setTimeout(() => sock.resume(), stopMs);
        } else if (inBurst >= burst) {
          inBurst = 0;
          sock.pause();
          setTimeout(() => sock.resume(), pauseMs);
        }
      });
      sock.on('error', () => undefined);
      sock.on('close', () => resolve({ bytes, lastDataMs, closedMs: Date.now() - t0 }));
    });
  }

  it('keeps a connection whose client reads a large reply slowly but steadily, as libevent does', async () => {
    await withTimeoutServer([large], async (s) => {
      // 1 MiB every 250 ms: the reply takes about 4 s, four times the timeout, with progress throughout.
      const r = await readLarge(s.port, 1024 * 1024, 250);
      expect(r.bytes).toBeGreaterThan(REPLY_TEXT_BYTES);
      expect(r.lastDataMs).toBeGreaterThan(1500);
    });
  });

  it('writes a reply made of thousands of small pieces whole and in order', async () => {
    // Byte results stay separate pieces of the reply: a batch of them is written in rounds.
    const bytes: RpcMethod = {
      name: 'bytes',
      category: 'util',
      required: 1,
      optional: 0,
      help: 'bytes n\n',
      call: (params) => Buffer.from(`"${getStr(params[0]!).padStart(300, '.')}"`),
    };
    await withTimeoutServer([bytes], async (s) => {
      const calls = Array.from({ length: 2000 }, (_, i) => `{"id":${i},"method":"bytes","params":["${i}"]}`);
      const reply = await post(s.port, `[${calls.join(',')}]`);
      const expected = calls.map((_, i) => `{"result":"${String(i).padStart(300, '.')}","error":null,"id":${i}}`);
      const want = `[${expected.join(',')}]\n`;
      expect(reply.body.length).toBe(want.length);
      expect(reply.body === want).toBe(true); // no 670 kB diff on failure
    });
  });

  it('serves a request whose bytes arrived while the event loop was busy past the timeout', async () => {
    const waiting = new Socket();
    const request = '{"id":1,"method":"echo","params":["served"]}';
    // Sends the waiting client's request, then keeps the event loop busy beyond its idle deadline.
    const busy: RpcMethod = {
      name: 'busy',
      category: 'util',
      required: 0,
      optional: 0,
      help: 'busy\n',
      call: () => {
        waiting.write(`POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${request.length}\r\n\r\n${request}`);
        const until = Date.now() + 1500;
        while (Date.now() < until);
        return '"done"';
      },
    };
    await withTimeoutServer([echo, busy], async (s) => {
      let data = '';
      const closed = new Promise<void>((resolve) => waiting.on('close', () => resolve()));
      waiting.on('data', (c: Buffer) => {
        data += c.toString('latin1');
        if (data.endsWith('\n')) waiting.end();
      });
      await new Promise<void>((resolve) => waiting.connect(s.port, '127.0.0.1', resolve));
      await new Promise((r) => setTimeout(r, 100)); // accepted: its idle deadline runs
      expect((await post(s.port, '{"id":1,"method":"busy"}')).body).toBe('{"result":"done","error":null,"id":1}\n');
      await closed;
      expect(data).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(data.endsWith('{"result":"served","error":null,"id":1}\n')).toBe(true);
    });
  });

  it('closes a connection whose client stops taking its reply', async () => {
    await withTimeoutServer([large], async (s) => {
      // The client takes 2 MiB, then nothing for 3 s.
      const r = await readLarge(s.port, 1024 * 1024, 100, 2 * 1024 * 1024, 3000);
      expect(r.bytes).toBeLessThan(REPLY_TEXT_BYTES);
      expect(r.closedMs).toBeGreaterThanOrEqual(3000);
    });
  });

  it('closes a connection whose request does not complete in time, without a reply, and keeps serving', async () => {
    await withTimeoutServer([echo], async (s) => {
      const received = await new Promise<{ data: string; ms: number }>((resolve) => {
        const t0 = Date.now();
        let data = '';
        const sock = connect(s.port, '127.0.0.1', () =>
          sock.write(`POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: 10\r\n\r\n{"id"`),
        );
        sock.on('data', (c) => (data += c.toString('latin1')));
        sock.on('close', () => resolve({ data, ms: Date.now() - t0 }));
      });
      expect(received.data).toBe('');
      expect(received.ms).toBeGreaterThanOrEqual(900);
      expect((await post(s.port, '{"id":1,"method":"echo","params":["after"]}')).body).toBe('{"result":"after","error":null,"id":1}\n');
    });
  });

  it('closes a connection that stalls after an early reply or a 100 Continue, and serves others meanwhile', async () => {
    await withTimeoutServer([echo], async (s) => {
      /** Sends `head`, then nothing; resolves with what came back and when the server closed. */
      const stall = (head: string) =>
        new Promise<{ data: string; ms: number }>((resolve) => {
          const t0 = Date.now();
          let data = '';
          const sock = connect(s.port, '127.0.0.1', () => sock.write(head));
          sock.on('data', (c: Buffer) => (data += c.toString('latin1')));
          sock.on('error', () => undefined);
          sock.on('close', () => resolve({ data, ms: Date.now() - t0 }));
        });
      const big = 32 * 1024 * 1024;
      const results = await Promise.all([
        stall('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n'), // 401 at once, then the body is awaited
        stall('GET /x HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n'), // 404
        stall(`POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nExpect: 100-continue\r\nContent-Length: ${big}\r\n\r\n`),
        // While those wait, a normal request is served at once.
        post(s.port, '{"id":1,"method":"echo","params":["meanwhile"]}').then((r) => ({ data: r.body, ms: 0 })),
      ]);
      expect(results[0]!.data.startsWith('HTTP/1.1 401 Unauthorized\r\n')).toBe(true);
      expect(results[1]!.data.startsWith('HTTP/1.1 404 Not Found\r\n')).toBe(true);
      expect(results[2]!.data).toBe('HTTP/1.1 100 Continue\r\n\r\n');
      for (const r of results.slice(0, 3)) expect(r.ms).toBeGreaterThanOrEqual(900); // closed by the 1 s deadline, not before
      expect(results[3]!.data).toBe('{"result":"meanwhile","error":null,"id":1}\n');
    });
  });

  it('closes a connection it has ended whole at once, even when the client never sends its own FIN', async () => {
    await withTimeoutServer([echo], async (s) => {
      const sock = connect({ port: s.port, host: '127.0.0.1', allowHalfOpen: true }, () => sock.write('GET / HTTP/1.0\r\n\r\n'));
      sock.on('error', () => undefined);
      let data = '';
      // The 405, then the server's FIN; ours never comes.
      await new Promise<void>((resolve) => {
        sock.on('data', (d: Buffer) => (data += d.toString('latin1')));
        sock.on('end', () => resolve());
      });
      expect(data.startsWith('HTTP/1.1 405 Method Not Allowed\r\n')).toBe(true);
      // Node destroys the socket once its reply is written (libevent waited for the timeout).
      for (let i = 0; i < 100 && s.stats().connections > 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(s.stats().connections).toBe(0);
      sock.destroy();
    });
  });

  it('never times a connection out with -rpcservertimeout=0, as libevent reads a zero timeout', async () => {
    const d = mkdtempSync(join(tmpdir(), 'zecrpc-timeout-0-'));
    const s = await startRpcServer({
      config: loadNodeConfig([`-datadir=${d}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=secret', '-rpcservertimeout=0']),
      methods: [echo],
    });
    try {
      // The head now, the body 300 ms later: a zero-length timer would have closed the connection at once.
      const reply = await new Promise<string>((resolve) => {
        const body = '{"id":1,"method":"echo","params":["late"]}';
        let data = '';
        const sock = connect(s.port, '127.0.0.1', () => {
          sock.write(`POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${body.length}\r\n\r\n`);
          setTimeout(() => sock.write(body), 300);
        });
        sock.on('data', (c: Buffer) => {
          data += c.toString('latin1');
          if (data.includes('"late"')) sock.end();
        });
        sock.on('close', () => resolve(data));
      });
      expect(reply).toContain('{"result":"late","error":null,"id":1}');
    } finally {
      await s.close();
      rmSync(d, { recursive: true, force: true });
    }
  });
});
