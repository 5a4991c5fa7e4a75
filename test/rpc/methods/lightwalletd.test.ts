// lightwalletd's whole conversation with its backend, replayed against a real zecrpc node (startNode,
// HTTP on 127.0.0.1) serving the real mainnet blocks 0..20 with `-experimentalfeatures -lightwalletd`.
//
// Every request is built as lightwalletd builds it (zcash/lightwalletd at 738a7ed; file:line on each
// call) and sent as its Go client sends it (frontend/rawrequest.go: HTTP POST, Content-Type
// application/json, basic auth, `Connection: close`, body json.Marshal(btcjson.Request) =
// {"jsonrpc":"1.0","method":…,"params":[…],"id":1}). Replies are read as that client reads them
// (an `error` member becomes the Go error "<code>: <message>") and decoded into lightwalletd's own
// Go structs with encoding/json's rules (case-insensitive member names, unknown members ignored,
// integer fields refuse fractions, strings and out-of-range values): a reply lightwalletd cannot
// parse fails here with encoding/json's message. The decoded values are then checked against the
// vector blocks.
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { startNode, type ServeHandle } from '../../../src/cli/serve.js';
import { decodeBlock, type Block } from '../../../src/codec/block.js';
import { encodeTransparentAddress } from '../../../src/codec/script/address.js';
import { JsonNumber, JsonObject, parseJson, type JsonValue } from '../../../src/json/index.js';
import { openChainStore } from '../../../src/store/index.js';
import { mainnetChain, tempDir, testnetChain } from '../../support/store.js';
import { readFacts, readHexVector } from '../../support/vectors.js';

// ---- encoding/json, as far as lightwalletd's structs need it ----------------------------------

type GoType = 'string' | 'int' | 'int64' | 'uint32' | 'uint64' | { slice: GoType } | { map: GoType } | { struct: Record<string, GoType> };

type GoValue = string | bigint | GoValue[] | { [k: string]: GoValue };

const INT_RANGE: Record<'int' | 'int64' | 'uint32' | 'uint64', [bigint, bigint]> = {
  int: [-(2n ** 63n), 2n ** 63n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

function goTypeName(t: GoType): string {
  if (typeof t === 'string') return t;
  if ('slice' in t) return `[]${goTypeName(t.slice)}`;
  if ('map' in t) return `map[string]${goTypeName(t.map)}`;
  return 'struct';
}

function zeroValue(t: GoType): GoValue {
  if (t === 'string') return '';
  if (typeof t === 'string') return 0n;
  if ('slice' in t) return [];
  if ('map' in t) return {};
  return Object.fromEntries(Object.entries(t.struct).map(([k, f]) => [k, zeroValue(f)]));
}

function jsonKind(v: JsonValue): string {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (v instanceof JsonNumber) return `number ${v.text}`;
  if (Array.isArray(v)) return 'array';
  return 'object';
}

/** json.Unmarshal of `v` into a Go value of type `t`; throws encoding/json's error text. */
function goDecode(t: GoType, v: JsonValue, field: string): GoValue {
  // A JSON null leaves any Go value at its zero value.
  if (v === null) return zeroValue(t);
  const mismatch = (): Error =>
    new Error(`json: cannot unmarshal ${jsonKind(v)} into Go ${field ? `struct field ${field}` : 'value'} of type ${goTypeName(t)}`);
  if (t === 'string') {
    if (typeof v !== 'string') throw mismatch();
    return v;
  }
  if (typeof t === 'string') {
    if (!(v instanceof JsonNumber) || !/^-?\d+$/.test(v.text)) throw mismatch();
    const n = BigInt(v.text);
    const [lo, hi] = INT_RANGE[t];
    if (n < lo || n > hi) throw mismatch();
    return n;
  }
  if ('slice' in t) {
    if (!Array.isArray(v)) throw mismatch();
    return v.map((e) => goDecode(t.slice, e, field));
  }
  if (!(v instanceof JsonObject)) throw mismatch();
  if ('map' in t) return Object.fromEntries(v.entries.map(([k, e]) => [k, goDecode(t.map, e, `${field}.${k}`)]));
  const out = zeroValue(t) as { [k: string]: GoValue };
  const names = Object.keys(t.struct);
  for (const [key, e] of v.entries) {
    // An exact name first, else a case-insensitive one; members matching no field are ignored.
    const name = names.find((n) => n === key) ?? names.find((n) => n.toLowerCase() === key.toLowerCase());
    if (name) out[name] = goDecode(t.struct[name]!, e, field ? `${field}.${name}` : name);
  }
  return out;
}

// ---- lightwalletd's structs (common/common.go:96-246) ------------------------------------------

const S = (fields: Record<string, GoType>): GoType => ({ struct: fields });
const commitments = S({ Commitments: S({ FinalState: 'string' }), SkipHash: 'string' });
const GO = {
  getblockchaininfo: S({
    Chain: 'string',
    Upgrades: { map: S({ Name: 'string', ActivationHeight: 'int', Status: 'string' }) },
    Blocks: 'int',
    BestBlockHash: 'string',
    Consensus: S({ Nextblock: 'string', Chaintip: 'string' }),
    EstimatedHeight: 'int',
  }),
  getinfo: S({ Build: 'string', Subversion: 'string' }),
  getexperimentalfeatures: { slice: 'string' } as GoType,
  getbestblockhash: 'string' as GoType,
  getblock1: S({
    Hash: 'string',
    Tx: { slice: 'string' },
    Trees: S({ Sapling: S({ Size: 'uint32' }), Orchard: S({ Size: 'uint32' }), Ironwood: S({ Size: 'uint32' }) }),
  }),
  getblock0: 'string' as GoType,
  gettreestate: S({ Height: 'int', Hash: 'string', Time: 'uint32', Sapling: commitments, Orchard: commitments, Ironwood: commitments }),
  getrawtransaction1: S({ Hex: 'string', Height: 'int64' }),
  getrawtransaction0: 'string' as GoType,
  txids: { slice: 'string' } as GoType,
  getaddressbalance: S({ Balance: 'int64' }),
  getaddressutxos: {
    slice: S({ Address: 'string', Txid: 'string', OutputIndex: 'int64', Script: 'string', Satoshis: 'uint64', Height: 'int' }),
  } as GoType,
  getsubtreesbyindex: S({ Subtrees: { slice: S({ Root: 'string', End_height: 'int' }) } }),
};

// ---- the Go client (frontend/rawrequest.go) ------------------------------------------------------

const USER = 'lwd';
const PASSWORD = 'lwd-secret';

type Reply = { result: JsonValue } | { error: string };

/**
 * One common.RawRequest: `params` are the json.RawMessage texts lightwalletd builds. Like
 * rawrequest.go:147-160, a body that is not JSON is an error naming the HTTP status, an `error`
 * member becomes btcjson.RPCError's "<code>: <message>", else `result` is the reply.
 */
function rawRequest(port: number, method: string, params: readonly string[], auth = `${USER}:${PASSWORD}`): Promise<Reply> {
  const body = Buffer.from(`{"jsonrpc":"1.0","method":${JSON.stringify(method)},"params":[${params.join(',')}],"id":1}`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/',
        headers: {
          'User-Agent': 'Go-http-client/1.1',
          'Content-Length': body.length,
          Authorization: 'Basic ' + Buffer.from(auth).toString('base64'),
          'Content-Type': 'application/json',
          Connection: 'close',
          'Accept-Encoding': 'gzip',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let bytes = Buffer.concat(chunks);
          // Go's transport asks for gzip itself and so undoes it transparently.
          if (res.headers['content-encoding'] === 'gzip') bytes = gunzipSync(bytes);
          let envelope: JsonValue;
          try {
            envelope = parseJson(bytes);
          } catch {
            resolve({ error: `status code: ${res.statusCode}, response: ${JSON.stringify(bytes.toString('utf8'))}` });
            return;
          }
          if (!(envelope instanceof JsonObject)) {
            resolve({ error: `json: cannot unmarshal ${jsonKind(envelope)} into Go value of type frontend.jsonRPCResponse` });
            return;
          }
          const error = envelope.get('error');
          if (error !== undefined && error !== null) {
            const e = goDecode(S({ Code: 'int', Message: 'string' }), error, 'Error') as { Code: bigint; Message: string };
            resolve({ error: `${e.Code}: ${e.Message}` });
            return;
          }
          resolve({ result: envelope.get('result') ?? null });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// ---- the expected chain, from the vectors ---------------------------------------------------------

const BLOCKS = mainnetChain();
const DECODED: Block[] = BLOCKS.map((b) => decodeBlock(b));
const FACTS = new Map(
  readFacts()
    .blocks.filter((b) => b.network === 'mainnet' && b.height <= 20)
    .map((b) => [b.height, b]),
);
/** zcashd chainparams: the first mainnet founders' reward address, paid in every block from 1. */
const FOUNDERS = 't3Vz22vK5z2LcKEdg16Yv4FFneEL1zg9ojd';
/** Sapling's consensus branch id: the key lightwalletd reads its activation height from (common/common.go:309). */
const SAPLING_BRANCH = '76b809bb';

const hashHexOf = (h: number): string => FACTS.get(h)?.hash ?? DECODED[h]!.hashHex;
const txidsOf = (h: number): string[] => FACTS.get(h)?.txids ?? DECODED[h]!.transactions.map((t) => t.txidHex);

/** Every output of blocks 1..20 paying FOUNDERS: what the address index must report. */
const FOUNDERS_OUTPUTS = DECODED.flatMap((block, height) =>
  height === 0
    ? []
    : block.transactions.flatMap((tx) =>
        tx.data.vout.flatMap((out, n) => {
          const s = out.scriptPubKey;
          const p2sh = s.length === 23 && s[0] === 0xa9 && s[1] === 0x14 && s[22] === 0x87;
          if (!p2sh || encodeTransparentAddress('p2sh', s.subarray(2, 22), MAINNET) !== FOUNDERS) return [];
          return [{ txid: tx.txidHex, n, script: Buffer.from(s).toString('hex'), value: out.value, height }];
        }),
      ),
);

// ---- the conversation --------------------------------------------------------------------------

const dir = tempDir('lightwalletd');
let node: ServeHandle;
let call: (method: string, params?: readonly string[]) => Promise<Reply>;

/** A call lightwalletd expects to succeed, decoded into its Go type. */
async function ok<T>(type: GoType, method: string, params: readonly string[] = []): Promise<T> {
  const reply = await call(method, params);
  if ('error' in reply) throw new Error(`${method} ${params.join(' ')} failed: ${reply.error}`);
  return goDecode(type, reply.result, '') as T;
}

/** A call lightwalletd expects to fail: the Go error text it sees. */
async function fails(method: string, params: readonly string[]): Promise<string> {
  const reply = await call(method, params);
  if (!('error' in reply)) throw new Error(`${method} ${params.join(' ')} answered instead of failing`);
  return reply.error;
}

/** json.Marshal of a Go value, as lightwalletd builds each json.RawMessage parameter. */
const marshal = (v: unknown): string => JSON.stringify(v);

beforeAll(async () => {
  const store = await openChainStore({ datadir: dir.path, network: MAINNET });
  for (const b of BLOCKS) await store.addBlock(b);
  await store.close();
  node = await startNode(
    [`-datadir=${dir.path}`, '-rpcport=0', `-rpcuser=${USER}`, `-rpcpassword=${PASSWORD}`, '-experimentalfeatures', '-lightwalletd'],
    { log: false },
  );
  call = (method, params = []) => rawRequest(node.server.port, method, params);
}, 60_000);

afterAll(async () => {
  await node?.shutdown();
  dir.remove();
});

type ChainInfo = {
  Chain: string;
  Upgrades: Record<string, { Name: string; ActivationHeight: bigint; Status: string }>;
  Blocks: bigint;
  BestBlockHash: string;
  Consensus: { Nextblock: string; Chaintip: string };
  EstimatedHeight: bigint;
};
type Block1 = { Hash: string; Tx: string[]; Trees: { Sapling: { Size: bigint }; Orchard: { Size: bigint }; Ironwood: { Size: bigint } } };
type TreeState = {
  Height: bigint;
  Hash: string;
  Time: bigint;
  Sapling: { Commitments: { FinalState: string }; SkipHash: string };
  Orchard: { Commitments: { FinalState: string }; SkipHash: string };
  Ironwood: { Commitments: { FinalState: string }; SkipHash: string };
};
type Utxo = { Address: string; Txid: string; OutputIndex: bigint; Script: string; Satoshis: bigint; Height: bigint };

describe('the encoding/json model the replies are checked with', () => {
  it('refuses what encoding/json refuses and matches member names as it does', () => {
    const t: GoType = S({ Blocks: 'int', Size: 'uint32', Hash: 'string' });
    expect(() => goDecode(t, parseJson('{"blocks":1.5}'), '')).toThrow(
      'json: cannot unmarshal number 1.5 into Go struct field Blocks of type int',
    );
    expect(() => goDecode(t, parseJson('{"size":-1}'), '')).toThrow(
      'json: cannot unmarshal number -1 into Go struct field Size of type uint32',
    );
    expect(() => goDecode(t, parseJson('{"hash":7}'), '')).toThrow(
      'json: cannot unmarshal number 7 into Go struct field Hash of type string',
    );
    expect(() => goDecode(t, parseJson('{"blocks":"20"}'), '')).toThrow(
      'json: cannot unmarshal string into Go struct field Blocks of type int',
    );
    expect(goDecode(t, parseJson('{"BLOCKS":20,"other":[1],"hash":null}'), '')).toEqual({ Blocks: 20n, Size: 0n, Hash: '' });
  });
});

describe('lightwalletd against zecrpc (mainnet blocks 0..20)', () => {
  it('starts: getblockchaininfo, getinfo (a zcashd subversion), getexperimentalfeatures with lightwalletd', async () => {
    // cmd/root.go:227 FirstRPC → common/common.go:276 GetBlockChainInfo.
    const first = await ok<ChainInfo>(GO.getblockchaininfo, 'getblockchaininfo');
    expect(first.Blocks).toBe(20n);

    // cmd/root.go:229 GetLightdInfo → common/common.go:289 getinfo, then :299 getblockchaininfo.
    const info = await ok<{ Build: string; Subversion: string }>(GO.getinfo, 'getinfo');
    // cmd/root.go:245-253: "/MagicBean:" selects the zcashd backend (else a fatal "unsupported backend").
    expect(info.Subversion).toContain('/MagicBean:');
    expect(info.Subversion).toBe('/MagicBean:6.12.2/');
    expect(info.Build).toBe('v6.12.2');
    const chain = await ok<ChainInfo>(GO.getblockchaininfo, 'getblockchaininfo');
    // LightdInfo fields (common/common.go:304-341).
    expect(chain.Chain).toBe('main');
    expect(chain.Upgrades[SAPLING_BRANCH]).toEqual({ Name: 'Sapling', ActivationHeight: 419200n, Status: 'pending' });
    expect(chain.Consensus.Chaintip).toBe('00000000');
    expect(chain.Blocks).toBe(20n);
    expect(chain.EstimatedHeight).toBeGreaterThanOrEqual(20n);
    // The next pending upgrade lightwalletd announces: the lowest pending activation height.
    const pending = Object.values(chain.Upgrades).filter((u) => u.Status === 'pending');
    const next = pending.reduce((a, b) => (b.ActivationHeight < a.ActivationHeight ? b : a));
    expect(next).toEqual({ Name: 'Overwinter', ActivationHeight: 347500n, Status: 'pending' });

    // A wrong rpcpassword: zcashd's 401 has no JSON body, so the Go client reports the HTTP status
    // (rawrequest.go:152-155) and FirstRPC retries, then exits.
    expect(await rawRequest(node.server.port, 'getblockchaininfo', [], `${USER}:wrong`)).toEqual({
      error: 'status code: 401, response: ""',
    });

    // cmd/root.go:271: without "lightwalletd" or "insightexplorer" lightwalletd exits fatally.
    const feats = await ok<string[]>(GO.getexperimentalfeatures, 'getexperimentalfeatures');
    expect(feats).toContain('lightwalletd');
  });

  it('ingests every block: getbestblockhash, getblock <height> 1 (txids, tree sizes), getblock <hash> 0', async () => {
    // common/common.go:470: the tip it compares with its cache.
    const best = await ok<string>(GO.getbestblockhash, 'getbestblockhash');
    expect(best).toBe(hashHexOf(20));
    expect(best).toMatch(/^[0-9a-f]{64}$/);
    for (let height = 0; height <= 20; height++) {
      // common/common.go:371: the height as a JSON string (json.Marshal(strconv.Itoa(height))), verbosity 1.
      const b1 = await ok<Block1>(GO.getblock1, 'getblock', [marshal(String(height)), '1']);
      expect(b1.Hash).toBe(hashHexOf(height));
      expect(b1.Tx).toEqual(txidsOf(height));
      // No Sapling or Orchard note before their activation: both trees are empty.
      expect([b1.Trees.Sapling.Size, b1.Trees.Orchard.Size, b1.Trees.Ironwood.Size]).toEqual([0n, 0n, 0n]);
      // common/common.go:393: the same block by hash, raw (verbosity 0), parsed and checked for its height.
      const raw = await ok<string>(GO.getblock0, 'getblock', [marshal(b1.Hash), '0']);
      expect(raw).toBe(Buffer.from(BLOCKS[height]!).toString('hex'));
    }
    // common/common.go:374-377: past the tip the error code must be -8, which means "wait for the block".
    const beyond = await fails('getblock', [marshal('21'), '1']);
    expect(beyond.split(':')[0]).toBe('-8');
    expect(beyond).toBe('-8: Block height out of range');
  });

  it('serves tree states: z_gettreestate by height and by hash (frontend/service.go:404)', async () => {
    /** GetTreeState's loop (service.go:393-440): follow SkipHash until a Sapling finalState appears. */
    const getTreeState = async (first: string): Promise<{ reply: TreeState; requests: number; error: string | null }> => {
      let param = first;
      let requests = 0;
      for (;;) {
        const reply = await ok<TreeState>(GO.gettreestate, 'z_gettreestate', [param]);
        requests++;
        if (reply.Sapling.Commitments.FinalState !== '' || reply.Sapling.SkipHash === '') {
          return {
            reply,
            requests,
            error: reply.Sapling.Commitments.FinalState === '' ? 'GetTreeState: z_gettreestate did not return treestate' : null,
          };
        }
        param = marshal(reply.Sapling.SkipHash);
      }
    };
    for (const [height, param] of [
      [5, marshal('5')], // service.go:365: json.Marshal(strconv.Itoa(int(id.Height)))
      [20, marshal(hashHexOf(20))], // service.go:378: hex.EncodeToString(id.Hash), big-endian (display order)
    ] as const) {
      const { reply: t, requests, error } = await getTreeState(param);
      expect(t.Height).toBe(BigInt(height));
      expect(t.Hash).toBe(hashHexOf(height));
      expect(t.Time).toBe(BigInt(DECODED[height]!.header.time));
      // Before Sapling a block's hashFinalSaplingRoot is its header's zero hashReserved, which is no
      // anchor, and zcashd stops the skipHash walk at Sapling's activation: neither a finalState nor
      // a skipHash (likewise for Orchard before NU5). So lightwalletd, on zcashd as here, answers
      // GetTreeState for these heights with its "did not return treestate" error, after one request.
      expect(t.Sapling).toEqual({ Commitments: { FinalState: '' }, SkipHash: '' });
      expect(t.Orchard).toEqual({ Commitments: { FinalState: '' }, SkipHash: '' });
      expect(t.Ironwood).toEqual({ Commitments: { FinalState: '' }, SkipHash: '' });
      expect(requests).toBe(1);
      expect(error).toBe('GetTreeState: z_gettreestate did not return treestate');
    }
  });

  it('serves subtree roots: z_getsubtreesbyindex (frontend/service.go:1036)', async () => {
    // service.go:1018-1034: the protocol name (ShieldedProtocol.String()), start index, max entries if > 0.
    for (const pool of ['sapling', 'orchard']) {
      const all = await ok<{ Subtrees: unknown[] }>(GO.getsubtreesbyindex, 'z_getsubtreesbyindex', [marshal(pool), marshal(0)]);
      expect(all.Subtrees).toEqual([]);
      const some = await ok<{ Subtrees: unknown[] }>(GO.getsubtreesbyindex, 'z_getsubtreesbyindex', [
        marshal(pool),
        marshal(0),
        marshal(5),
      ]);
      expect(some.Subtrees).toEqual([]);
    }
    // service.go:1010: lightwalletd also asks for "ironwood", NU6.3's pool, which the default
    // profile (current) serves; zcashd v6.12.2 has no such pool (-compat=6.12.2: subtrees.test.ts).
    const ironwood = await ok<{ Subtrees: unknown[] }>(GO.getsubtreesbyindex, 'z_getsubtreesbyindex', [marshal('ironwood'), marshal(0)]);
    expect(ironwood.Subtrees).toEqual([]);
  });

  it('answers the transparent address calls (frontend/service.go:166, 477, 613, 931)', async () => {
    const expectedTxids = [...new Set(FOUNDERS_OUTPUTS.map((o) => o.txid))];
    expect(expectedTxids).toHaveLength(20);

    // service.go:146-166: {"addresses":[addr],"start":S,"end":E}, end = the chain height when not given.
    const txids = await ok<string[]>(GO.txids, 'getaddresstxids', [marshal({ addresses: [FOUNDERS], start: 0, end: 20 })]);
    expect(txids).toEqual(expectedTxids);
    const from10 = await ok<string[]>(GO.txids, 'getaddresstxids', [marshal({ addresses: [FOUNDERS], start: 10, end: 20 })]);
    expect(from10).toEqual(FOUNDERS_OUTPUTS.filter((o) => o.height >= 10).map((o) => o.txid));
    // service.go:186 → GetTransaction, service.go:477: getrawtransaction txid 1 (common/common.go:709).
    for (const txid of txids) {
      const tx = await ok<{ Hex: string; Height: bigint }>(GO.getrawtransaction1, 'getrawtransaction', [marshal(txid), '1']);
      const o = FOUNDERS_OUTPUTS.find((f) => f.txid === txid)!;
      expect(tx.Height).toBe(BigInt(o.height));
      expect(tx.Hex).toBe(Buffer.from(DECODED[o.height]!.transactions[0]!.bytes).toString('hex'));
    }
    // service.go:800 reads the same transaction raw (verbosity "0", a bare JSON string).
    expect(await ok<string>(GO.getrawtransaction0, 'getrawtransaction', [marshal(txids[0]), '0'])).toBe(
      Buffer.from(DECODED[1]!.transactions[0]!.bytes).toString('hex'),
    );

    // service.go:605-613: {"addresses":[...]}.
    const balance = await ok<{ Balance: bigint }>(GO.getaddressbalance, 'getaddressbalance', [marshal({ addresses: [FOUNDERS] })]);
    expect(balance.Balance).toBe(BigInt(FOUNDERS_OUTPUTS.reduce((s, o) => s + o.value, 0)));
    // service.go:614-619: the gRPC code depends on the message containing "Invalid address".
    expect(await fails('getaddressbalance', [marshal({ addresses: ['tmBsTi2xWTjUdEXnuTceL7fecEQKeWaPDJd'] })])).toContain(
      'Invalid address',
    );

    // service.go:920-931: {"addresses":[...]} plus startHeight / maxEntries when set (omitempty).
    // zcashd sorts the outputs by height; lightwalletd streams them in that order.
    const utxos = await ok<Utxo[]>(GO.getaddressutxos, 'getaddressutxos', [marshal({ addresses: [FOUNDERS] })]);
    const want = FOUNDERS_OUTPUTS.map((o) => ({
      Address: FOUNDERS,
      Txid: o.txid,
      OutputIndex: BigInt(o.n),
      Script: o.script,
      Satoshis: BigInt(o.value),
      Height: BigInt(o.height),
    }));
    expect(utxos).toEqual(want);
    // A backend may ignore startHeight/maxEntries (common/common.go:174) and lightwalletd re-applies
    // them (service.go:951-958); zcashd ignores members it does not know, and so does zecrpc.
    const limited = await ok<Utxo[]>(GO.getaddressutxos, 'getaddressutxos', [
      marshal({ addresses: [FOUNDERS], startHeight: 15, maxEntries: 3 }),
    ]);
    expect(limited).toEqual(want);
    expect(
      limited
        .filter((u) => u.Height >= 15n)
        .slice(0, 3)
        .map((u) => u.Height),
    ).toEqual([15n, 16n, 17n]);
  });

  it('follows the mempool and relays transactions (common/mempool.go:107, frontend/service.go:548, 772)', async () => {
    // Without -upstream the mempool is empty, as a zcashd with no peers has it.
    expect(await ok<string[]>(GO.txids, 'getrawmempool', [])).toEqual([]);

    // service.go:548-567: the error is split at the first ':' into an int32 code and a trimmed message.
    const sendResponse = async (raw: Uint8Array): Promise<{ ErrorCode: number; ErrorMessage: string }> => {
      const reply = await call('sendrawtransaction', [marshal(Buffer.from(raw).toString('hex'))]);
      if (!('error' in reply)) return { ErrorCode: 0, ErrorMessage: JSON.stringify(reply.result) };
      const [code, message] = [reply.error.slice(0, reply.error.indexOf(':')), reply.error.slice(reply.error.indexOf(':') + 1)];
      expect(code).toMatch(/^-?\d+$/);
      return { ErrorCode: Number(code), ErrorMessage: message!.trim() };
    };
    // A transaction of the chain: zcashd's "already in block chain".
    expect(await sendResponse(DECODED[3]!.transactions[0]!.bytes)).toEqual({
      ErrorCode: -27,
      ErrorMessage: 'transaction already in block chain',
    });
    // A well-formed transaction spending outputs the chain does not have: zcashd's "Missing inputs".
    const loose = decodeBlock(readHexVector('blocks', 'mainnet', '347499.hex')).transactions[1]!;
    expect(await sendResponse(loose.bytes)).toEqual({ ErrorCode: -25, ErrorMessage: 'Missing inputs' });
    // A coinbase the chain lacks: zcashd's mempool refuses it, code and reason after the RPC code.
    expect(await sendResponse(decodeBlock(testnetChain()[1]!).transactions[0]!.bytes)).toEqual({
      ErrorCode: -26,
      ErrorMessage: '16: coinbase',
    });
    // Bytes that are no transaction: RPC_DESERIALIZATION_ERROR with zcashd's decode failure text.
    const garbage = await sendResponse(Uint8Array.of(0));
    expect(garbage.ErrorCode).toBe(-22);
    expect(garbage.ErrorMessage).toMatch(/^TX decode failed/);
  });
});
