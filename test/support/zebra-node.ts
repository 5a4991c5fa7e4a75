// A Zebra-shaped JSON-RPC node on 127.0.0.1 serving the real nu6.3 blocks, for the importer,
// the follower and the checkpoint start. What it answers and how follows Zebra 6.2.3 as the
// captures in nu6.3/zebra-rpc/ show it and as zebra-rpc's source writes it:
//   - envelopes: a single request is rewritten to JSON-RPC 2.0 and its reply back to the
//     caller's version (zebra-rpc server/http_request_compatibility.rs: "1.0" with params and id
//     gets `jsonrpc`, `id`, `result`, `error`; no version gets `id`, `result`, `error`; "2.0"
//     gets `jsonrpc`, `id` and one of `result`/`error`, as testnet-error-block-out-of-range.json);
//     a batch goes untouched to the strict 2.0 parser, so an item not saying "2.0" is refused;
//   - errors: getblockhash past the tip, -1 "Provided index is greater than the current tip"
//     (InvalidParams, which server/rpc_call_compatibility.rs turns into -1); a height not in
//     the best chain, -8 "block height not in best chain" (the capture); an unknown hash, -5
//     with the same message; getblock <h> 0 of neither, -8 "Block not found"; unknown methods,
//     -32601 "Method not found";
//   - getblock 1: members in the capture's order, each pool of `valuePools` from nu6.3/pools/
//     (Zebra's own numbers), and no `chainwork` (Zebra has none); members that would need state
//     the vectors do not hold (tree roots and sizes, difficulty, chainSupply) are left out;
//   - a batch whose replies exceed `maxResponseBytes` (Zebra's max_response_body_size, 50 MiB by
//     default) is answered, as jsonrpsee answers it, with one error object: -32011 "The batch
//     response was too large", data "Exceeded max limit of N";
//   - z_gettreestate: only for the heights it is given tree states for; `sapling` and `orchard`
//     always, `ironwood` from NU6.3 (zebra-rpc methods.rs), no `sprout` (Zebra keeps none).
// Heights below the first block it holds answer as heights outside Zebra's best chain.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STORED_BLOCK_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { decodeBlock, type Block } from '../../src/codec/block.js';
import { toHexReversed } from '../../src/codec/hex.js';
import { readHexVector, readJsonVector } from './vectors.js';

export type Nu63Network = 'mainnet' | 'testnet';

/** The real nu6.3 blocks of a network, oldest first: mainnet 3428141–3428146, testnet 4133998–4134010. */
export const NU63_RANGE: Record<Nu63Network, { first: number; last: number; activation: number }> = {
  mainnet: { first: 3428141, last: 3428146, activation: 3428143 },
  testnet: { first: 4133998, last: 4134010, activation: 4134000 },
};

export interface ZebraPool {
  id: string;
  chainValueZat: number;
  monitored: boolean;
  valueDeltaZat: number;
}

/** Zebra 6.2.3's valuePools for a real nu6.3 block (nu6.3/pools/). */
export function zebraPools(network: Nu63Network, height: number): ZebraPool[] {
  return readJsonVector<{ valuePools: ZebraPool[] }>('nu6.3', 'pools', network, `${height}.json`).valuePools;
}

export function nu63Block(network: Nu63Network, height: number): Uint8Array {
  return readHexVector('nu6.3', 'blocks', network, `${height}.hex`);
}

/** One pool's `commitments` as z_gettreestate prints them. */
export interface TreeCommitments {
  finalRoot?: string;
  finalState?: string;
}

export interface ZebraTreeState {
  sapling: TreeCommitments;
  orchard: TreeCommitments;
  ironwood?: TreeCommitments;
}

type Reply = { result: unknown } | { error: { code: number; message: string } };

const fail = (code: number, message: string): Reply => ({ error: { code, message } });

/** Zebra's JSON numbers for ZEC amounts: f64 of the zatoshis over 10^8. */
const zec = (zat: number): number => zat / 1e8;

export class ZebraNode {
  private readonly blocks: { height: number; bytes: Uint8Array; block: Block; hash: string }[] = [];
  private readonly treeStates = new Map<number, ZebraTreeState>();
  private server: Server | null = null;
  /** Requests received, each item of a batch counted. */
  calls: string[] = [];
  /** The largest reply a batch may get (Zebra's default `max_response_body_size`). */
  maxResponseBytes = 52_428_800;
  /** Batches refused as too large. */
  refusedBatches = 0;
  /** The highest height served (lower it to play a node that has not seen later blocks yet). */
  tip: number;

  constructor(
    readonly network: Nu63Network,
    readonly first: number = NU63_RANGE[network].first,
    readonly last: number = NU63_RANGE[network].last,
  ) {
    for (let h = first; h <= last; h++) {
      const bytes = nu63Block(network, h);
      const block = decodeBlock(bytes, STORED_BLOCK_ACCEPTANCE);
      this.blocks.push({ height: h, bytes, block, hash: block.hashHex });
    }
    this.tip = last;
  }

  /** What z_gettreestate answers at `height`; without one it answers that it cannot. */
  setTreeState(height: number, state: ZebraTreeState): void {
    this.treeStates.set(height, state);
  }

  hashAt(height: number): string {
    return this.entry(height)!.hash;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }

  private entry(height: number) {
    return height >= this.first && height <= this.tip ? this.blocks[height - this.first] : undefined;
  }

  /** HashOrHeight as Zebra parses it: a 64-digit hash, or a height (negative: from the tip). */
  private find(arg: unknown): { byHash: boolean; at: ZebraNode['blocks'][number] | undefined } {
    const text = String(arg);
    if (/^[0-9a-fA-F]{64}$/.test(text)) {
      const at = this.blocks.find((b) => b.hash === text.toLowerCase() && b.height <= this.tip);
      return { byHash: true, at };
    }
    const n = Number(text);
    const height = n < 0 ? this.tip + 1 + n : n;
    return { byHash: false, at: Number.isInteger(height) ? this.entry(height) : undefined };
  }

  private answer(method: string, params: unknown[]): Reply {
    switch (method) {
      case 'getblockcount':
        return { result: this.tip };
      case 'getbestblockhash':
        return { result: this.hashAt(this.tip) };
      case 'getblockhash': {
        const index = params[0];
        if (typeof index !== 'number' || !Number.isInteger(index)) return fail(-1, 'Invalid params');
        if (index > this.tip) return fail(-1, 'Provided index is greater than the current tip');
        const at = this.entry(index < 0 ? this.tip + 1 + index : index);
        return at ? { result: at.hash } : fail(-8, 'block height not in best chain');
      }
      case 'getblock': {
        const verbosity = params[1] ?? 1;
        const { byHash, at } = this.find(params[0]);
        if (!at) return verbosity === 0 ? fail(-8, 'Block not found') : fail(byHash ? -5 : -8, 'block height not in best chain');
        if (verbosity === 0) return { result: Buffer.from(at.bytes).toString('hex') };
        return { result: this.verboseBlock(at) };
      }
      case 'getblockheader': {
        const { byHash, at } = this.find(params[0]);
        if (!at) return fail(byHash ? -5 : -8, 'block height not in best chain');
        if (params[1] === false) return { result: Buffer.from(at.block.header.bytes).toString('hex') };
        return { result: this.verboseHeader(at) };
      }
      case 'z_gettreestate': {
        const { at } = this.find(params[0]);
        if (!at) return fail(-8, 'the requested block is not in the main chain');
        const trees = this.treeStates.get(at.height);
        if (!trees) return fail(-32603, `this test node holds no tree state for height ${at.height}`);
        return {
          result: {
            hash: at.hash,
            height: at.height,
            time: at.block.header.time,
            sapling: { commitments: trees.sapling },
            orchard: { commitments: trees.orchard },
            ...(at.height >= NU63_RANGE[this.network].activation ? { ironwood: { commitments: trees.ironwood ?? {} } } : {}),
          },
        };
      }
      default:
        return fail(-32601, 'Method not found');
    }
  }

  private verboseHeader(at: ZebraNode['blocks'][number]): Record<string, unknown> {
    const h = at.block.header;
    const next = this.entry(at.height + 1);
    return {
      hash: at.hash,
      confirmations: this.tip - at.height + 1,
      height: at.height,
      version: h.version,
      merkleroot: toHexReversed(h.merkleRoot),
      blockcommitments: toHexReversed(h.commitments),
      time: h.time,
      nonce: toHexReversed(h.nonce),
      solution: Buffer.from(h.solution).toString('hex'),
      bits: h.bits.toString(16).padStart(8, '0'),
      previousblockhash: toHexReversed(h.prevHash),
      ...(next ? { nextblockhash: next.hash } : {}),
    };
  }

  private verboseBlock(at: ZebraNode['blocks'][number]): Record<string, unknown> {
    const header = this.verboseHeader(at);
    const { previousblockhash, nextblockhash, ...head } = header;
    return {
      hash: head.hash,
      confirmations: head.confirmations,
      size: at.bytes.length,
      height: head.height,
      version: head.version,
      merkleroot: head.merkleroot,
      blockcommitments: head.blockcommitments,
      nTx: at.block.transactions.length,
      tx: at.block.transactions.map((t) => t.txidHex),
      time: head.time,
      nonce: head.nonce,
      solution: head.solution,
      bits: head.bits,
      valuePools: zebraPools(this.network, at.height).map((p) => ({
        id: p.id,
        chainValue: zec(p.chainValueZat),
        chainValueZat: p.chainValueZat,
        monitored: p.monitored,
        valueDelta: zec(p.valueDeltaZat),
        valueDeltaZat: p.valueDeltaZat,
      })),
      previousblockhash,
      ...(nextblockhash ? { nextblockhash } : {}),
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      this.send(res, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      return;
    }
    if (Array.isArray(body)) {
      const replies = body.map((item: { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown[] }) => {
        if (item?.jsonrpc !== '2.0' || typeof item.method !== 'string')
          return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } };
        this.calls.push(item.method);
        return { jsonrpc: '2.0', id: item.id ?? null, ...this.answer(item.method, item.params ?? []) };
      });
      if (JSON.stringify(replies).length > this.maxResponseBytes) {
        this.refusedBatches++;
        const error = { code: -32011, message: 'The batch response was too large', data: `Exceeded max limit of ${this.maxResponseBytes}` };
        this.send(res, { jsonrpc: '2.0', id: null, error });
        return;
      }
      this.send(res, replies);
      return;
    }
    const request = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown[] };
    if (typeof request?.method !== 'string') {
      this.send(res, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } });
      return;
    }
    this.calls.push(request.method);
    const reply = this.answer(request.method, request.params ?? []);
    const id = request.id ?? null;
    if (request.jsonrpc === '2.0') this.send(res, { jsonrpc: '2.0', id, ...reply });
    else {
      const legacy = { id, result: 'result' in reply ? reply.result : null, error: 'error' in reply ? reply.error : null };
      this.send(res, request.jsonrpc === '1.0' ? { jsonrpc: '1.0', ...legacy } : legacy);
    }
  }

  private send(res: ServerResponse, value: unknown): void {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  }
}
