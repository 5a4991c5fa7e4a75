// Shared fixtures of the stress suite: large blocks (real transactions, ~1.4 MB like the
// mainnet blocks of the measurements in issue 12), an in-memory store holding them, and a raw
// HTTP/1.1 client that sees exactly the bytes the server writes.
import { connect, type Socket } from 'node:net';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock, encodeBlock, merkleRoot } from '../../src/codec/block.js';
import { toHexReversed } from '../../src/codec/hex.js';
import { readHexVector } from '../support/vectors.js';
import { MemoryChainStore, mainnetGenesisRun } from '../support/memory-store.js';

/** Height of the vector block (Sapling era) whose transactions fill the large blocks: its 1.4 MB copies render ~7.8 MB of verbosity-2 JSON, like the mainnet blocks of the report. */
export const LARGE_BLOCK_HEIGHT = 903000;

/**
 * `count` distinct blocks of about `targetBytes`: block 903000's header (nonce varied, merkle
 * root recomputed) over its transactions repeated. Real transactions, so decoding and
 * rendering cost what they cost on mainnet.
 */
export function largeBlocks(count: number, targetBytes = 1_400_000): Uint8Array[] {
  const base = decodeBlock(readHexVector('blocks', 'mainnet', `${LARGE_BLOCK_HEIGHT}.hex`));
  const txs: Uint8Array[] = [];
  let size = base.header.bytes.length + 5;
  while (size < targetBytes) {
    for (const t of base.transactions) {
      txs.push(t.bytes);
      size += t.bytes.length;
    }
  }
  const root = merkleRoot(txs.map((_, i) => base.transactions[i % base.transactions.length]!.txid));
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const nonce = new Uint8Array(base.header.nonce);
    nonce[0] = i & 0xff;
    nonce[1] = (i >> 8) & 0xff;
    out.push(encodeBlock({ ...base.header, nonce, merkleRoot: root }, txs));
  }
  return out;
}

/** Mainnet blocks 0..20 as the best chain, plus the given large blocks as side blocks. */
export function storeWithLargeBlocks(blocks: readonly Uint8Array[]): { store: MemoryChainStore; hashes: string[] } {
  const store = new MemoryChainStore(
    MAINNET,
    mainnetGenesisRun(),
    blocks.map((bytes) => ({ bytes, height: LARGE_BLOCK_HEIGHT, chainWork: 1n })),
  );
  return { store, hashes: blocks.map((b) => toHexReversed(decodeBlock(b).hash)) };
}

export const USER = 'stress';
export const PASSWORD = 'pw';
export const AUTH = 'Basic ' + Buffer.from(`${USER}:${PASSWORD}`).toString('base64');

export interface RawReply {
  statusLine: string;
  headers: [string, string][];
  body: Buffer;
}

/** Reads one HTTP reply from bytes received so far; null while incomplete. */
function parseReply(buf: Buffer, final: boolean): { reply: RawReply; rest: Buffer } | null {
  const sep = buf.indexOf('\r\n\r\n');
  if (sep < 0) return null;
  const head = buf.subarray(0, sep).toString('latin1').split('\r\n');
  const headers = head.slice(1).map((l) => {
    const i = l.indexOf(':');
    return [l.slice(0, i), l.slice(i + 1).trim()] as [string, string];
  });
  const len = headers.find(([k]) => k.toLowerCase() === 'content-length');
  const body = buf.subarray(sep + 4);
  if (len) {
    const n = Number(len[1]);
    if (body.length < n) return null;
    return { reply: { statusLine: head[0]!, headers, body: body.subarray(0, n) }, rest: body.subarray(n) };
  }
  return final ? { reply: { statusLine: head[0]!, headers, body }, rest: Buffer.alloc(0) } : null;
}

/** Sends raw bytes and resolves with the first reply (or rejects when the server closes first). */
export function rawRequest(port: number, bytes: string | Buffer, onSocket?: (s: Socket) => void): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    onSocket?.(sock);
    // Chunks are joined only to look for the head and once the declared length has arrived:
    // joining on every chunk is quadratic on multi-megabyte replies.
    const chunks: Buffer[] = [];
    let received = 0;
    let needed = -1;
    let done = false;
    const check = (final: boolean) => {
      if (done || (!final && needed >= 0 && received < needed)) return;
      const buf = Buffer.concat(chunks);
      chunks.splice(0, chunks.length, buf);
      const r = parseReply(buf, final);
      if (r) {
        done = true;
        sock.destroy();
        resolve(r.reply);
        return;
      }
      if (final) {
        done = true;
        reject(new Error(`connection closed without a complete reply (${buf.length} bytes)`));
        return;
      }
      const sep = buf.indexOf('\r\n\r\n');
      const len = /\r\ncontent-length: *(\d+)/i.exec(buf.subarray(0, Math.max(0, sep)).toString('latin1'));
      if (sep >= 0 && len) needed = sep + 4 + Number(len[1]);
    };
    sock.on('data', (d: Buffer) => {
      chunks.push(d);
      received += d.length;
      check(false);
    });
    sock.on('end', () => check(true));
    sock.on('close', () => check(true));
    sock.on('error', (e) => {
      if (!done) reject(e);
    });
    sock.write(bytes);
  });
}

export function postBytes(body: string, auth: string | null = AUTH): string {
  return (
    `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth === null ? '' : `Authorization: ${auth}\r\n`}` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

export function post(port: number, body: string, auth: string | null = AUTH): Promise<RawReply> {
  return rawRequest(port, postBytes(body, auth));
}

/** Samples this process's resident set size every few milliseconds; `stop` returns the peak. */
export function sampleRss(everyMs = 5): { stop(): number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}
