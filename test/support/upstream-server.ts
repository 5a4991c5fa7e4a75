// A tiny upstream JSON-RPC server on 127.0.0.1 serving real blocks: getblockcount, getblockhash,
// getblock <hash> 0, single and batch requests, basic auth, and misbehaviour switches for error tests.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChainStore } from '../../src/store/index.js';

/**
 * 'endless' streams a reply that never ends; 'drip' sends each reply in ten parts `dripMs` apart;
 * the others answer at once, wrongly.
 */
export type Misbehaviour = 'none' | 'garbage' | 'hang' | 'wrong-block' | 'bad-hash' | 'endless' | 'drip';

export class UpstreamServer {
  chain: Uint8Array[] = [];
  private hashes: string[] = [];
  misbehave: Misbehaviour = 'none';
  /** What getblockcount answers instead of the chain's height. */
  countOverride: number | null = null;
  /** Waited before every answer. */
  delayMs = 0;
  dripMs = 50;
  requests = 0;
  private server: Server | null = null;
  private readonly hanging = new Set<ServerResponse>();

  constructor(private readonly auth: { user: string; password: string } | null) {}

  setChain(blocks: Uint8Array[]): void {
    this.chain = blocks;
    this.hashes = blocks.map((b) => Buffer.from(ChainStore.hashOf(b)).reverse().toString('hex'));
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  async stop(): Promise<void> {
    for (const r of this.hanging) r.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }

  private answer(method: string, params: unknown[]): { result?: unknown; error?: { code: number; message: string } } {
    if (method === 'getblockcount') return { result: this.countOverride ?? this.chain.length - 1 };
    if (method === 'getblockhash') {
      const h = params[0] as number;
      if (this.misbehave === 'bad-hash') return { result: 12345 };
      if (h < 0 || h >= this.chain.length) return { error: { code: -8, message: 'Block height out of range' } };
      return { result: this.hashes[h] };
    }
    if (method === 'getblock') {
      const i = this.hashes.indexOf(params[0] as string);
      if (i < 0) return { error: { code: -5, message: 'Block not found' } };
      const bytes = this.misbehave === 'wrong-block' ? this.chain[(i + 1) % this.chain.length]! : this.chain[i]!;
      return { result: Buffer.from(bytes).toString('hex') };
    }
    return { error: { code: -32601, message: 'Method not found' } };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (this.auth) {
      const want = 'Basic ' + Buffer.from(`${this.auth.user}:${this.auth.password}`).toString('base64');
      if (req.headers.authorization !== want) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="jsonrpc"' }).end();
        return;
      }
    }
    if (this.misbehave === 'hang') {
      this.hanging.add(res);
      return;
    }
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.misbehave === 'endless') {
      this.hanging.add(res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"result":"');
      const more = (): void => {
        if (!res.destroyed) res.write('ab'.repeat(32 * 1024), () => setImmediate(more));
      };
      more();
      return;
    }
    if (this.misbehave === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>502 Bad Gateway</html>');
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    const one = (r: { id: unknown; method: string; params?: unknown[] }) => ({
      result: null,
      error: null,
      ...this.answer(r.method, r.params ?? []),
      id: r.id,
    });
    const reply = Array.isArray(body) ? body.map(one) : one(body as { id: unknown; method: string });
    const text = JSON.stringify(reply) + '\n';
    if (this.misbehave === 'drip') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const part = Math.ceil(text.length / 10);
      for (let at = 0; at < text.length; at += part) {
        res.write(text.slice(at, at + part));
        await new Promise((r) => setTimeout(r, this.dripMs));
      }
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(text);
  }
}

/** Polls `cond` until it holds (a wait for an asynchronous follower, not a timing assertion). */
export async function waitFor(cond: () => Promise<boolean>, what: string, limitMs = 15_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
