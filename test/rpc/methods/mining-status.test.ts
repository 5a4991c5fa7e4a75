// The mining and generating categories as zcashd v6.12.2 answers for a node that does not mine
// (src/rpc/mining.cpp): GetNetworkHashPS over the real mainnet blocks 0..20, checked against an
// independent derivation from the block headers (compact target → work, the block times), the
// getdouble rounding of arith_uint256, and each method's errors.
import { afterEach, describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, TESTNET, type NetworkParams } from '../../../src/chain/network.js';
import { handleJsonRpcBody } from '../../../src/rpc/dispatch.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { UpstreamRelay } from '../../../src/rpc/methods/mempool/upstream-relay.js';
import { arith256ToDouble } from '../../../src/rpc/methods/mining/network-solps.js';
import { GETNETWORKHASHPS_HELP } from '../../../src/rpc/methods/mining/getnetworksolps.js';
import { MethodRegistry } from '../../../src/rpc/registry.js';
import { fixtureStore, mainnetGenesisRun, MemoryChainStore } from '../../support/memory-store.js';
import { UpstreamServer } from '../../support/upstream-server.js';

const NOW = 1_764_000_000;

async function rpc(registry: MethodRegistry, method: string, params = '[]', network: NetworkParams = MAINNET) {
  const reply = await handleJsonRpcBody(Buffer.from(`{"id":1,"method":"${method}","params":${params}}`), registry, {
    network,
    requestStop: () => {},
  });
  return (typeof reply.body === 'string' ? reply.body : Buffer.concat(reply.body).toString('utf8')).trimEnd();
}
const ok = (result: string) => `{"result":${result},"error":null,"id":1}`;
const err = (code: number, message: string) => `{"result":null,"error":{"code":${code},"message":${JSON.stringify(message)}},"id":1}`;

/** Each header's time and work, derived here from its bytes: work = 2^256 / (target + 1). */
function headerFacts(): { time: number; work: bigint }[] {
  return mainnetGenesisRun().map((block) => {
    const view = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
    const bits = view.readUInt32LE(104);
    const target = BigInt(bits & 0x7fffff) << BigInt(8 * ((bits >>> 24) - 3));
    return { time: view.readUInt32LE(100), work: (1n << 256n) / (target + 1n) };
  });
}

/** zcashd's formula applied to the derived facts (all values here are exact in a double). */
function expectedSolPs(lookup: number, height: number): number {
  const facts = headerFacts();
  const tip = facts.length - 1;
  const end = height >= 0 && height < tip ? height : tip;
  if (end === 0) return 0;
  const window = Math.min(lookup <= 0 ? 17 : lookup, end);
  const times = facts.slice(end - window, end + 1).map((f) => f.time);
  const span = Math.max(...times) - Math.min(...times);
  if (span === 0) return 0;
  const work = facts.slice(end - window + 1, end + 1).reduce((a, f) => a + f.work, 0n);
  return Math.trunc(Number(work) / span);
}

function registry(store = fixtureStore(), upstream: UpstreamRelay | null = null): MethodRegistry {
  return new MethodRegistry(storeMethods(store, { upstream, clock: () => NOW }));
}

describe('mining status of a node that does not mine', () => {
  let upstream: UpstreamServer | null = null;
  afterEach(async () => {
    await upstream?.stop();
    upstream = null;
  });

  it('arith_uint256::getdouble rounds after each limb, not once', () => {
    // 1 is lost against 2^63, which then ties against 2^116 and rounds to even.
    const x = (1n << 116n) + (1n << 63n) + 1n;
    expect(arith256ToDouble(x)).toBe(2 ** 116);
    expect(Number(x)).toBe(2 ** 116 + 2 ** 64);
    expect(arith256ToDouble(0n)).toBe(0);
    expect(arith256ToDouble((1n << 256n) - 1n)).toBe(2 ** 256);
  });

  it('getnetworksolps and getnetworkhashps from the stored mainnet headers', async () => {
    const r = registry();
    const cases: [string, number, number][] = [
      ['[]', 120, -1],
      ['[-1]', -1, -1],
      ['[5]', 5, -1],
      ['[0,10]', 0, 10],
      ['[3,7]', 3, 7],
      ['[120,1]', 120, 1],
      ['[120,0]', 120, 0],
      ['[120,20]', 120, 20],
      ['[120,500]', 120, 500],
    ];
    for (const [params, lookup, height] of cases) {
      const expected = expectedSolPs(lookup, height);
      expect(await rpc(r, 'getnetworksolps', params)).toBe(ok(String(expected)));
      expect(await rpc(r, 'getnetworkhashps', params)).toBe(ok(String(expected)));
    }
    expect(expectedSolPs(120, -1)).toBeGreaterThan(0);
    expect(expectedSolPs(120, 0)).toBe(0);
    expect(await rpc(r, 'getnetworksolps', '["5"]')).toBe(err(-1, 'JSON value is not an integer as expected'));
    expect(await rpc(r, 'getnetworksolps', '[1.5]')).toBe(err(-1, 'JSON integer out of range'));
    expect(await rpc(r, 'getnetworksolps', '[1,2,3]')).toContain(
      'Too many parameters for method `getnetworksolps`. Needed at least 0 and at most 2, but received 3',
    );
    expect(await rpc(r, 'help', '["getnetworkhashps"]')).toBe(
      '{"result":null,"error":{"code":-32601,"message":"Method not found"},"id":1}',
    );
    expect(r.help('getnetworkhashps')).toBe(GETNETWORKHASHPS_HELP);
    expect(GETNETWORKHASHPS_HELP).toContain(
      '\n\ngetnetworkhashps is DEPRECATED and will be removed in a future release.\nPlease use getnetworksolps instead.\n',
    );
  });

  it('getmininginfo: no assembled block, no generation, the network rate, an empty pool', async () => {
    const r = registry();
    const info = await rpc(r, 'getmininginfo');
    const difficulty = (JSON.parse(await rpc(r, 'getdifficulty')) as { result: number }).result;
    const solps = expectedSolPs(120, -1);
    const parsed = JSON.parse(info) as { result: Record<string, unknown> };
    expect(parsed.result.difficulty).toBe(difficulty);
    expect(info.replace(/"difficulty":[^,]+,/, '"difficulty":D,')).toBe(
      ok(
        `{"blocks":20,"difficulty":D,"errors":"","errorstimestamp":${NOW},"genproclimit":1,"localsolps":0,` +
          `"networksolps":${solps},"networkhashps":${solps},"pooledtx":0,"testnet":false,"chain":"main","generate":false}`,
      ),
    );
    const empty = new MethodRegistry(storeMethods(new MemoryChainStore(TESTNET, []), { clock: () => NOW }));
    expect(await rpc(empty, 'getmininginfo', '[]', TESTNET)).toBe(
      ok(
        `{"blocks":-1,"difficulty":1,"errors":"","errorstimestamp":${NOW},"genproclimit":1,"localsolps":0,` +
          '"networksolps":0,"networkhashps":0,"pooledtx":0,"testnet":true,"chain":"test","generate":false}',
      ),
    );
    expect(await rpc(r, 'getlocalsolps')).toBe(ok('0'));
  });

  it('getgenerate, setgenerate and generate as a node without a miner address', async () => {
    const r = registry();
    expect(await rpc(r, 'getgenerate')).toBe(ok('false'));
    expect(await rpc(r, 'setgenerate', '[true]')).toBe(ok('null'));
    expect(await rpc(r, 'getgenerate')).toBe(ok('true'));
    expect(await rpc(r, 'setgenerate', '[true,-1]')).toBe(ok('null'));
    expect(await rpc(r, 'getmininginfo')).toMatch(/"genproclimit":-1,.*"generate":true\}/);
    expect(await rpc(r, 'setgenerate', '[true,0]')).toBe(ok('null'));
    expect(await rpc(r, 'getgenerate')).toBe(ok('false'));
    expect(await rpc(r, 'setgenerate', '["yes"]')).toBe(err(-1, 'JSON value is not a boolean as expected'));
    expect(await rpc(r, 'setgenerate', '[true]', REGTEST)).toBe(
      err(-32601, 'Use the generate method instead of setgenerate on this network'),
    );
    expect(await rpc(r, 'generate', '[1]')).toBe(err(-32601, 'This method can only be used on regtest'));
    expect(await rpc(r, 'generate', '[1]', REGTEST)).toBe(
      err(-32603, 'No miner address available (mining requires a wallet or -mineraddress)'),
    );
    expect(await rpc(r, 'generate', '["1"]', REGTEST)).toBe(err(-1, 'JSON value is not an integer as expected'));
  });

  it('prioritisetransaction without -upstream checks its arguments and answers true', async () => {
    const r = registry();
    const txid = '"' + 'ab'.repeat(32) + '"';
    expect(await rpc(r, 'prioritisetransaction', `[${txid},0.0,10000]`)).toBe(ok('true'));
    expect(await rpc(r, 'prioritisetransaction', `[${txid},null,-5]`)).toBe(ok('true'));
    expect(await rpc(r, 'prioritisetransaction', `[${txid},1,10000]`)).toBe(
      err(-8, 'Priority is not supported, and adjustment thereof must be zero.'),
    );
    expect(await rpc(r, 'prioritisetransaction', '["xyz",0,1]')).toBe(err(-1, "txid must be hexadecimal string (not 'xyz')"));
    expect(await rpc(r, 'prioritisetransaction', `[${txid},0,1.5]`)).toBe(err(-1, 'JSON integer out of range'));
    expect(await rpc(r, 'prioritisetransaction', `[${txid},0]`)).toContain(
      'Not enough parameters for method `prioritisetransaction`. Needed exactly 3, but received 2',
    );
  });

  it('getblocktemplate and submitblock without -upstream: zcashd errors, duplicates known', async () => {
    const r = registry();
    expect(await rpc(r, 'getblocktemplate')).toBe(err(-32601, 'Wallet disabled and -mineraddress not set'));
    expect(await rpc(r, 'getblocktemplate', '[{"mode":"proposal"}]')).toBe(err(-32601, 'Wallet disabled and -mineraddress not set'));
    const block5 = Buffer.from(mainnetGenesisRun()[5]!).toString('hex');
    expect(await rpc(r, 'submitblock', `["${block5}"]`)).toBe(ok('"duplicate"'));
    expect(await rpc(r, 'submitblock', `["${block5.slice(0, 400)}"]`)).toBe(err(-22, 'Block decode failed'));
    expect(await rpc(r, 'submitblock', '["zz"]')).toBe(err(-22, 'Block decode failed'));
    expect(await rpc(r, 'submitblock', '[""]')).toBe(err(-22, 'Block decode failed'));
    expect(await rpc(r, 'submitblock', '[5]')).toBe(err(-1, 'JSON value is not a string as expected'));
    const unknown = Buffer.from(mainnetGenesisRun()[5]!);
    unknown[4] = unknown[4]! ^ 1; // another previous-block hash: a block the store does not hold
    expect(await rpc(r, 'submitblock', `["${unknown.toString('hex')}"]`)).toBe(
      err(-9, 'submitblock needs -upstream: zecrpc has no peer-to-peer network to send the block to'),
    );
  });

  it('with -upstream: templates, submissions, priorities and the pool size come from it', async () => {
    upstream = new UpstreamServer(null);
    const url = await upstream.start();
    upstream.setChain(mainnetGenesisRun().slice(0, 2));
    const r = registry(fixtureStore(), new UpstreamRelay(url, { timeoutMs: 2000 }));
    // The test upstream knows no mining methods: its -32601 comes back as it is.
    expect(await rpc(r, 'getblocktemplate')).toBe(err(-32601, 'Method not found'));
    const unknown = Buffer.from(mainnetGenesisRun()[5]!);
    unknown[4] = unknown[4]! ^ 1; // another previous-block hash: a block the store does not hold
    expect(await rpc(r, 'submitblock', `["${unknown.toString('hex')}"]`)).toBe(err(-32601, 'Method not found'));
    expect(await rpc(r, 'prioritisetransaction', `["${'ab'.repeat(32)}",0,1]`)).toBe(err(-32601, 'Method not found'));
    expect(await rpc(r, 'getmininginfo')).toBe(err(-32601, 'Method not found'));
    const requests = upstream.requests;
    expect(await rpc(r, 'submitblock', `["${Buffer.from(mainnetGenesisRun()[5]!).toString('hex')}"]`)).toBe(ok('"duplicate"'));
    expect(upstream.requests).toBe(requests);
  });
});
