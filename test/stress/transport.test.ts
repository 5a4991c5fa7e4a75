// Issue 12, findings 2, 4, 5, 7 and 8: zcashd's work queue, credentials checked before any
// body is read, shutdown that never waits on a client, and the transport details of
// rpc-http-json.md §1 as llhttp and Fastify serve them (header limit, HTTP/1.0 replies, Host not required, CONNECT and
// Expect answered with libevent's pages, -rpcssl refused, IPv4 and IPv6 listeners with
// -rpcallowip), plus the cookie file never written through a planted symlink.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNodeConfig } from '../../src/config.js';
import type { RpcMethod } from '../../src/rpc/method.js';
import { startRpcServer, type RunningRpcServer } from '../../src/rpc/http/server.js';
import { AUTH, PASSWORD, post, postBytes, rawRequest, USER, type RawReply } from './fixtures.js';

const dirs: string[] = [];
function datadir(): string {
  const d = mkdtempSync(join(tmpdir(), 'zecrpc-stress-transport-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A method that holds its work-queue slot until released by the test. */
function gate(): { method: RpcMethod; open(): void; entered: () => number } {
  let release!: () => void;
  let opened = new Promise<void>((r) => (release = r));
  let count = 0;
  return {
    method: {
      name: 'gate',
      category: 'util',
      required: 0,
      optional: 0,
      help: 'gate\n',
      call: async () => {
        count++;
        await opened;
        return '"open"';
      },
    },
    open: () => {
      release();
      opened = Promise.resolve();
    },
    entered: () => count,
  };
}

/** A reply header by name, case aside (Node writes Fastify's header names in lower case). */
const header = (r: RawReply, name: string) => r.headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
const PAGE = (status: number, reason: string) =>
  `<HTML><HEAD>\n<TITLE>${status} ${reason}</TITLE>\n</HEAD><BODY>\n<H1>${reason}</H1>\n</BODY></HTML>\n`;
/** Polls the server's state until `cond` holds: a deadline far beyond any machine's load, not a measure of speed. */
const until = async (cond: () => boolean) => {
  const deadline = Date.now() + 50_000;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
};

describe('work queue (-rpcthreads, -rpcworkqueue)', () => {
  it('runs -rpcthreads requests, queues -rpcworkqueue more, and refuses the next with zcashd’s reply', async () => {
    const g = gate();
    const config = loadNodeConfig([
      `-datadir=${datadir()}`,
      '-rpcport=0',
      `-rpcuser=${USER}`,
      `-rpcpassword=${PASSWORD}`,
      '-rpcthreads=2',
      '-rpcworkqueue=3',
    ]);
    const s = await startRpcServer({ config, methods: [g.method] });
    const held = Array.from({ length: 5 }, () => post(s.port, '{"id":1,"method":"gate"}'));
    await until(() => s.stats().running === 2 && s.stats().waiting === 3);
    expect(g.entered()).toBe(2);
    const refused = await post(s.port, '{"id":2,"method":"gate"}');
    expect(refused.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(refused.body.toString('latin1')).toBe('Work queue depth exceeded');
    expect(header(refused, 'Content-Type')).toBe('text/html; charset=ISO-8859-1');
    g.open();
    for (const r of await Promise.all(held)) expect(r.body.toString('utf8')).toBe('{"result":"open","error":null,"id":1}\n');
    expect(s.stats()).toMatchObject({ running: 0, waiting: 0 });
    await s.close();
  });
});

describe("wrong credentials wait on a timer, as many at once as zcashd's work queue holds (auth-penalty.ts)", () => {
  it('limits the guesses one address has in flight to a quarter of -rpcthreads + -rpcworkqueue, refusing the rest unchecked', async () => {
    const config = loadNodeConfig([
      `-datadir=${datadir()}`,
      '-rpcport=0',
      `-rpcuser=${USER}`,
      `-rpcpassword=${PASSWORD}`,
      '-rpcthreads=1',
      '-rpcworkqueue=7',
    ]);
    const s = await startRpcServer({ config, methods: [] });
    try {
      const wrong = 'Basic ' + Buffer.from(`${USER}:guess`).toString('base64');
      // Six guesses at once from one address: two wait out the penalty (8 at once, 2 per address),
      // four are refused unchecked.
      const replies = await Promise.all(Array.from({ length: 6 }, () => post(s.port, '{"id":1,"method":"x"}', wrong)));
      const lines = replies.map((r) => r.statusLine).sort();
      expect(lines).toEqual([
        'HTTP/1.1 401 Unauthorized',
        'HTTP/1.1 401 Unauthorized',
        'HTTP/1.1 500 Internal Server Error',
        'HTTP/1.1 500 Internal Server Error',
        'HTTP/1.1 500 Internal Server Error',
        'HTTP/1.1 500 Internal Server Error',
      ]);
      expect(s.stats()).toMatchObject({ running: 0, waiting: 0 });
      // No credentials at all is no guess: answered at once, without a slot.
      expect((await post(s.port, '{"id":1,"method":"x"}', null)).statusLine).toBe('HTTP/1.1 401 Unauthorized');
    } finally {
      await s.close();
    }
  });
});

describe('authentication before the body', () => {
  let s: RunningRpcServer;
  beforeAll(async () => {
    const config = loadNodeConfig([`-datadir=${datadir()}`, '-rpcport=0', `-rpcuser=${USER}`, `-rpcpassword=${PASSWORD}`]);
    s = await startRpcServer({ config, methods: [] });
  });
  afterAll(() => s.close());

  it('answers 32 MB bodies without credentials with 401 from their headers, storing none of them', async () => {
    const declared = 0x02000000;
    const before = process.memoryUsage.rss();
    let maxBodyBytes = 0;
    const watch = setInterval(() => (maxBodyBytes = Math.max(maxBodyBytes, s.stats().bodyBytes)), 2);
    const sockets: Socket[] = [];
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        rawRequest(
          s.port,
          // Only the first 64 KB of each body is ever sent: the reply must not wait for the rest.
          Buffer.concat([
            Buffer.from(
              `POST / HTTP/1.1\r\nHost: x\r\n${i % 2 ? 'Authorization: Basic d3Jvbmc6d3Jvbmc=\r\n' : ''}Content-Length: ${declared}\r\n\r\n`,
            ),
            Buffer.alloc(65536, 0x20),
          ]),
          (sock) => sockets.push(sock),
        ),
      ),
    );
    clearInterval(watch);
    // Without credentials: 401 at once. Wrong ones wait out the penalty five at a time for one
    // address (a quarter of 4 threads + 16 queued), so the rest of those get zcashd's full-queue
    // reply instead, from their headers too.
    replies.forEach((r, i) => {
      if (i % 2 === 0) expect(r.statusLine).toBe('HTTP/1.1 401 Unauthorized');
      else expect(['HTTP/1.1 401 Unauthorized', 'HTTP/1.1 500 Internal Server Error']).toContain(r.statusLine);
    });
    expect(replies.filter((r) => r.statusLine === 'HTTP/1.1 401 Unauthorized').length).toBeGreaterThanOrEqual(100 + 5);
    expect(maxBodyBytes).toBe(0);
    expect(process.memoryUsage.rss() - before).toBeLessThan(64 * 1024 * 1024);
    // The server is in step and serving: a valid request on a fresh connection works.
    expect((await post(s.port, '{"id":1,"method":"help","params":["stop"]}')).statusLine).toBe('HTTP/1.1 200 OK');
  });

  it('keeps a connection usable after refusing a request whose body it skipped', async () => {
    const body = '{"id":1,"method":"help","params":["stop"]}';
    const two =
      `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
      `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
    const text = await new Promise<string>((resolve) => {
      let out = '';
      const sock = connect(s.port, '127.0.0.1', () => sock.write(two));
      sock.on('data', (d) => (out += d.toString('latin1')));
      sock.on('close', () => resolve(out));
    });
    expect(text.startsWith('HTTP/1.1 401 Unauthorized\r\n')).toBe(true);
    expect(text).toContain('\r\n\r\nHTTP/1.1 200 OK\r\n');
    expect(text.endsWith('"error":null,"id":1}\n')).toBe(true);
  });
});

describe('transport details (rpc-http-json.md §1)', () => {
  let s: RunningRpcServer;
  beforeAll(async () => {
    const config = loadNodeConfig([`-datadir=${datadir()}`, '-rpcport=0', `-rpcuser=${USER}`, `-rpcpassword=${PASSWORD}`]);
    s = await startRpcServer({ config, methods: [] });
  });
  afterAll(() => s.close());

  /** A request whose head (request line, headers, line ends and the empty line) is exactly `size` bytes. */
  const sized = (size: number) => {
    const start = 'GET / HTTP/1.1\r\nHost: x\r\nX-Pad: ';
    const end = '\r\nConnection: close\r\n\r\n';
    return `${start}${'a'.repeat(size - start.length - end.length)}${end}`;
  };

  it('accepts a head of 8,192 bytes and answers a larger one (llhttp’s count) with 431 and libevent’s page', async () => {
    expect((await rawRequest(s.port, sized(8192))).statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
    const over = await rawRequest(s.port, sized(8300));
    expect(over.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(over.body.toString('latin1')).toBe(PAGE(431, 'Request Header Fields Too Large'));
  });

  it('answers HTTP/1.0 with an HTTP/1.1 status line (Node’s), closing unless asked to keep the connection', async () => {
    const body = '{"id":1,"method":"help","params":["stop"]}';
    const r = await rawRequest(s.port, `POST / HTTP/1.0\r\nAuthorization: ${AUTH}\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    expect(r.statusLine).toBe('HTTP/1.1 200 OK');
    expect(header(r, 'Connection')).toBe('close');
    expect(header(r, 'Content-Type')).toBe('application/json');
    expect(r.body.toString('utf8')).toBe('{"result":"stop\\n\\nStop Zcash server.","error":null,"id":1}\n');
    const ka = await rawRequest(
      s.port,
      `POST / HTTP/1.0\r\nConnection: keep-alive\r\nAuthorization: ${AUTH}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(ka.statusLine).toBe('HTTP/1.1 200 OK');
    expect(header(ka, 'Connection')).toBe('keep-alive');
    expect(header(ka, 'Content-Length')).toBe(String(ka.body.length));
  });

  it('serves an HTTP/1.1 request without Host', async () => {
    const body = '{"id":1,"method":"help","params":["stop"]}';
    const r = await rawRequest(
      s.port,
      `POST / HTTP/1.1\r\nAuthorization: ${AUTH}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(r.statusLine).toBe('HTTP/1.1 200 OK');
  });

  it('answers CONNECT with 501 and an unknown Expect with libevent’s 417 page', async () => {
    const c = await rawRequest(s.port, 'CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(c.statusLine).toBe('HTTP/1.1 501 Not Implemented');
    expect(header(c, 'Connection')).toBe('close');
    expect(c.body.toString('latin1')).toBe(PAGE(501, 'Not Implemented'));
    const e = await rawRequest(
      s.port,
      `POST / HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nAuthorization: ${AUTH}\r\nContent-Length: 2\r\n\r\n{}`,
    );
    expect(e.statusLine).toBe('HTTP/1.1 417 Expectation Failed');
    expect(header(e, 'Connection')).toBe('close');
    expect(e.body.toString('latin1')).toBe(PAGE(417, 'Expectation Failed'));
  });

  it('sends 100 Continue to an authenticated Expect: 100-continue before reading the body', async () => {
    const body = '{"id":1,"method":"help","params":["stop"]}';
    const text = await new Promise<string>((resolve) => {
      let out = '';
      const sock = connect(s.port, '127.0.0.1', () =>
        sock.write(
          `POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nAuthorization: ${AUTH}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
        ),
      );
      sock.on('data', (d) => {
        if (out === '') sock.write(body);
        out += d.toString('latin1');
      });
      sock.on('close', () => resolve(out));
    });
    expect(text.startsWith('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n')).toBe(true);
  });

  /**
   * The server's one reply to `bytes` (a single request) and whether it then closed the
   * connection, decided without a timer: a reply saying `Connection: close` must be followed by
   * the close, which is awaited; after any other, a second request on the connection must be
   * answered (it stayed open), else the close that comes instead says it did not.
   */
  const exchange = (bytes: string) =>
    new Promise<{ text: string; closed: boolean }>((resolve) => {
      let received = '';
      let replyLength: number | null = null;
      let probing = false;
      const sock = connect(s.port, '127.0.0.1', () => sock.write(bytes));
      sock.on('error', () => undefined);
      const settle = (closed: boolean) => {
        sock.destroy();
        resolve({ text: replyLength === null ? received : received.slice(0, replyLength), closed });
      };
      sock.on('data', (d: Buffer) => {
        received += d.toString('latin1');
        const headEnd = received.indexOf('\r\n\r\n');
        if (replyLength === null && headEnd >= 0) {
          const length = /\r\ncontent-length: (\d+)\r\n/i.exec(received.slice(0, headEnd + 2));
          replyLength = headEnd + 4 + Number(length?.[1] ?? 0);
        }
        if (replyLength === null || received.length < replyLength) return;
        const keepsOpen = !/\r\nconnection: close\r\n/i.test(received.slice(0, replyLength));
        if (keepsOpen && !probing) {
          probing = true;
          sock.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
        } else if (probing && /^HTTP\/1\.1 \d{3} /.test(received.slice(replyLength))) settle(false);
      });
      sock.on('close', () => settle(true));
    });
  const help = '{"id":1,"method":"help","params":["stop"]}';

  it('reads the request line, Content-Length and Connection as llhttp does', async () => {
    // Trailing spaces after the version and a signed length are refused (libevent took them).
    for (const bytes of [
      `POST / HTTP/1.1   \r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${help.length}\r\nConnection: close\r\n\r\n${help}`,
      `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: +${help.length}\r\nConnection: close\r\n\r\n${help}`,
    ]) {
      const r = await exchange(bytes);
      expect([r.text.startsWith('HTTP/1.1 400 Bad Request\r\n'), r.closed]).toEqual([true, true]);
    }
    // "close" anywhere in the list closes (RFC 9110 §7.6.1; libevent wanted it as the whole value).
    for (const value of ['keep-alive, close', 'close, TE']) {
      const r = await exchange(
        `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${help.length}\r\nConnection: ${value}\r\n\r\n${help}`,
      );
      expect([r.text.startsWith('HTTP/1.1 200 OK\r\n'), r.text.includes('Connection: close'), r.closed]).toEqual([true, true, true]);
    }
    // Otherwise an HTTP/1.1 connection stays open.
    const open = await exchange(`POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${help.length}\r\n\r\n${help}`);
    expect([open.text.startsWith('HTTP/1.1 200 OK\r\n'), open.closed]).toEqual([true, false]);
  });

  it('closes after refusing an Expect: 100-continue request from its head, so an unsent body cannot be taken for the next request', async () => {
    const r = await exchange(`POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: ${help.length}\r\n\r\n`);
    expect(r.text.startsWith('HTTP/1.1 401 Unauthorized\r\n')).toBe(true);
    expect(r.text.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(r.closed).toBe(true);
  });
});

describe('startup options', () => {
  it('refuses -rpcssl as zcashd does', async () => {
    const config = loadNodeConfig([`-datadir=${datadir()}`, '-rpcport=0', '-rpcssl']);
    await expect(startRpcServer({ config, methods: [] })).rejects.toThrow('SSL mode for RPC (-rpcssl) is no longer supported.');
  });

  it('listens on IPv4 and IPv6 with -rpcallowip and no -rpcbind', async () => {
    const config = loadNodeConfig([
      `-datadir=${datadir()}`,
      '-rpcport=0',
      `-rpcuser=${USER}`,
      `-rpcpassword=${PASSWORD}`,
      '-rpcallowip=10.0.0.0/8',
    ]);
    const s = await startRpcServer({ config, methods: [] });
    expect(s.addresses).toEqual([`0.0.0.0:${s.port}`, `:::${s.port}`]);
    const v6 = await new Promise<string>((resolve, reject) => {
      let out = '';
      const sock = connect(s.port, '::1', () => sock.write(postBytes('{"id":1,"method":"help","params":["stop"]}')));
      sock.on('data', (d) => (out += d.toString('latin1')));
      sock.on('close', () => resolve(out));
      sock.on('error', reject);
    });
    expect(v6.startsWith('HTTP/1.1 200 OK')).toBe(true);
    await s.close();
  });

  it('never writes the cookie through a symlink planted at .cookie.tmp', async () => {
    const d = datadir();
    mkdirSync(join(d, 'regtest'), { recursive: true });
    const victim = join(d, 'victim');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, join(d, 'regtest', '.cookie.tmp'));
    const s = await startRpcServer({ config: loadNodeConfig([`-datadir=${d}`, '-rpcport=0', '-regtest']), methods: [] });
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(s.cookieFile!).isSymbolicLink()).toBe(false);
    expect(readFileSync(s.cookieFile!, 'utf8')).toMatch(/^__cookie__:/);
    await s.close();
    expect(existsSync(s.cookieFile!)).toBe(false);
  });
});
