// The HTTP front end under fuzzed input (./http-properties.ts): JSON-RPC bodies (calls, batches,
// malformed and truncated JSON, deep nesting, huge numbers, bad UTF-8, odd methods and params),
// REST paths, and raw requests, against a real server on a TCP port. A fixed seed and a budget
// counted in inputs; test/long/http-fuzz.ts runs the same properties for as long as asked.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH,
  checkAlive,
  checkJsonRpcReply,
  exchange,
  framingRequest,
  jsonRpcBody,
  parseReply,
  rawRequest,
  request,
  restPath,
  startFuzzServer,
  type FuzzServer,
} from './http-properties.js';

const seed = 0x477;
let fuzz: FuzzServer;
let port: number;
beforeAll(async () => {
  fuzz = await startFuzzServer();
  port = fuzz.server.port;
});
afterAll(async () => fuzz.stop());

describe('HTTP front end under fuzzed input', () => {
  it('JSON-RPC: every body is answered with a well-formed reply, 200, 400, 404 or 500, in JSON', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(jsonRpcBody, async (body) => {
        const reply = parseReply(await exchange(port, request('POST', '/', body, [`Authorization: ${AUTH}`])), false);
        checkJsonRpcReply(reply);
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      }),
      { seed, numRuns: 400 },
    );
    // The inputs reach results, parse errors, invalid requests and unknown methods alike.
    for (const status of [200, 404, 500]) expect([status, (statuses.get(status) ?? 0) > 5]).toEqual([status, true]);
    await checkAlive(port);
  });

  it('a parse error is zcashd’s, whatever the malformed body', async () => {
    for (const body of ['{', '[', '{"method":', '\x80', '{"method":"getblockcount","params":' + '['.repeat(100_000)]) {
      const reply = parseReply(await exchange(port, request('POST', '/', Buffer.from(body, 'latin1'), [`Authorization: ${AUTH}`])), false);
      expect([reply.status, reply.body.toString('utf8')]).toEqual([
        500,
        '{"result":null,"error":{"code":-32700,"message":"Parse error"},"id":null}\n',
      ]);
    }
  });

  it('REST: every path is answered with a well-formed reply', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(restPath, fc.constantFrom('GET', 'HEAD', 'POST'), async (path, method) => {
        const reply = parseReply(await exchange(port, request(method, path, new Uint8Array())), method === 'HEAD');
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      }),
      { seed, numRuns: 300 },
    );
    for (const status of [200, 400, 404]) expect([status, (statuses.get(status) ?? 0) > 5]).toEqual([status, true]);
    await checkAlive(port);
  });

  it('raw requests (methods, targets, headers) and broken framing: a well-formed reply each', async () => {
    await fc.assert(
      fc.asyncProperty(rawRequest, async ({ bytes, head }) => void parseReply(await exchange(port, bytes), head)),
      { seed, numRuns: 300 },
    );
    await fc.assert(
      fc.asyncProperty(framingRequest, async (bytes) => void parseReply(await exchange(port, bytes), false)),
      { seed, numRuns: 20 },
    );
    await checkAlive(port);
    expect(fuzz.server.stats().connections).toBe(0);
  });
});
