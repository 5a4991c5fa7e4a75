import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCheapCall } from '../../../src/rpc/http/cheap-calls.js';
import type { RunningRpcServer } from '../../../src/rpc/http/server.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { postJsonRpc, startOneWorkerServer } from '../../support/http-rpc.js';

const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');

describe('which calls are cheap', () => {
  const cheap = (text: string) => isCheapCall(Buffer.from(text, 'latin1'));
  it('a single call of a method answered from memory', () => {
    expect(cheap('{"jsonrpc":"1.0","id":"probe","method":"getblockcount","params":[]}')).toBe(true);
    expect(cheap('{"id":1,"method" : "getblockhash","params":[1000]}')).toBe(true);
    expect(cheap('{"method":"getbestblockhash"}')).toBe(true);
  });
  it('not a batch, another method, a long body, an escape or two method members', () => {
    expect(cheap('[{"id":1,"method":"getblockcount"}]')).toBe(false);
    expect(cheap('{"id":1,"method":"getblock","params":["00"]}')).toBe(false);
    expect(cheap(`{"id":"${'x'.repeat(300)}","method":"getblockcount"}`)).toBe(false);
    expect(cheap('{"method":"getblockcount","m\\u0065thod":"getblock"}')).toBe(false);
    expect(cheap('{"method":"getblockcount","method":"getblock"}')).toBe(false);
    expect(cheap('')).toBe(false);
  });
  it('reads white space as JavaScript does (NBSP too), and only a "method" member with a name counts', () => {
    expect(cheap('\u00a0 {"method"\u00a0:\t"ping"}')).toBe(true);
    expect(cheap('\u00a0[{"method":"ping"}]')).toBe(false);
    expect(cheap('{"params":["method"],"method":"getblockcount"}')).toBe(true);
    expect(cheap('{"method":"getblockcount","params":{"method":"getblock"}}')).toBe(false);
    expect(cheap('{"method":"getBlockCount"}')).toBe(false);
    expect(cheap('{"method":"","id":1}')).toBe(false);
    expect(cheap('{"method":"getblockcountx"}')).toBe(false);
  });
});

describe('a storm of heavy calls against a server with one worker and a queue of one', () => {
  let server: RunningRpcServer;
  let releaseHeavy: () => void = () => undefined;
  const gate = () => new Promise<void>((resolve) => (releaseHeavy = resolve));
  let heavyGate = gate();
  const heavy: RpcMethod = {
    name: 'getblock',
    category: 'blockchain',
    required: 0,
    optional: 2,
    help: 'getblock\n',
    call: async () => (await heavyGate, '"heavy"'),
  };
  const count: RpcMethod = {
    name: 'getblockcount',
    category: 'blockchain',
    required: 0,
    optional: 0,
    help: 'getblockcount\n',
    call: () => '42',
  };

  let close: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    ({ server, close } = await startOneWorkerServer([heavy, count]));
  });
  afterAll(async () => {
    releaseHeavy();
    await close();
  });

  const call = (method: string, id: number) => postJsonRpc(server.port, AUTH, JSON.stringify({ id, method, params: [] }));

  it('answers the probes while the heavy calls fill the queue and the excess heavy calls are shed', async () => {
    // One heavy call runs, one waits; the rest find the queue full.
    const storm = Array.from({ length: 6 }, (_, i) => call('getblock', 100 + i));
    const shed = await Promise.any(storm.map((p) => p.then((r) => (r.status === 500 ? r : Promise.reject(new Error('served'))))));
    expect(shed.body).toBe('Work queue depth exceeded');
    const probes = [];
    for (let i = 1; i <= 10; i++) probes.push(await call('getblockcount', i));
    expect(probes.map((p) => p.body)).toEqual(Array.from({ length: 10 }, (_, i) => `{"result":42,"error":null,"id":${i + 1}}\n`));
    releaseHeavy();
    heavyGate = Promise.resolve();
    const heavyReplies = await Promise.all(storm);
    expect(heavyReplies.filter((r) => r.status === 200).map((r) => JSON.parse(r.body).result)).toEqual(['heavy', 'heavy']);
    expect(heavyReplies.filter((r) => r.status === 500)).toHaveLength(4);
  });
});
