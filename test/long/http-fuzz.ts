/**
 * Long fuzz run of the HTTP front end's contract in test/fuzz/http-properties.ts (the CI test,
 * test/fuzz/http.fuzz.test.ts, sends about a thousand inputs, seeded):
 *
 *   npx tsx test/long/http-fuzz.ts [inputs=200000] [seed=random]
 *
 * Inputs, each on a connection of its own to a real server (mainnet 0..20, -rest): 60% JSON-RPC
 * bodies, 25% REST paths, 15% raw requests and broken framing. Every 10,000 inputs, and at the
 * end, `getblockcount` must answer 20. Exits non-zero with the counterexample (and the seed to
 * replay it) on the first violation.
 */
import fc from 'fast-check';
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
} from '../fuzz/http-properties.js';

const runs = Number(process.argv[2] ?? 200_000);
const seed = Number(process.argv[3] ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0);
if (!Number.isInteger(runs) || runs <= 0 || !Number.isInteger(seed)) {
  console.error('usage: npx tsx test/long/http-fuzz.ts [inputs] [seed]');
  process.exit(2);
}

type Input =
  { kind: 'rpc'; body: Uint8Array } | { kind: 'rest'; path: string; method: string } | { kind: 'raw'; bytes: Buffer; head: boolean };
const input: fc.Arbitrary<Input> = fc.oneof(
  { weight: 60, arbitrary: jsonRpcBody.map((body): Input => ({ kind: 'rpc', body })) },
  {
    weight: 25,
    arbitrary: fc.tuple(restPath, fc.constantFrom('GET', 'HEAD', 'POST')).map(([path, method]): Input => ({ kind: 'rest', path, method })),
  },
  { weight: 14, arbitrary: rawRequest.map((r): Input => ({ kind: 'raw', ...r })) },
  { weight: 1, arbitrary: framingRequest.map((bytes): Input => ({ kind: 'raw', bytes, head: false })) },
);

const fuzz = await startFuzzServer();
const port = fuzz.server.port;
const started = performance.now();
let done = 0;
const result = await fc.check(
  fc.asyncProperty(input, async (x) => {
    if (x.kind === 'rpc')
      checkJsonRpcReply(parseReply(await exchange(port, request('POST', '/', x.body, [`Authorization: ${AUTH}`])), false));
    else if (x.kind === 'rest') parseReply(await exchange(port, request(x.method, x.path, new Uint8Array())), x.method === 'HEAD');
    else parseReply(await exchange(port, x.bytes), x.head);
    if (++done % 10_000 === 0) {
      await checkAlive(port);
      console.log(`${done.toLocaleString('en-US')} inputs, ${((performance.now() - started) / 1000).toFixed(0)} s, getblockcount still 20`);
    }
  }),
  { numRuns: runs, seed, endOnFailure: true },
);
await checkAlive(port);
await fuzz.stop();
const seconds = (performance.now() - started) / 1000;
console.log(`seed ${seed}: ${result.numRuns.toLocaleString('en-US')} inputs in ${seconds.toFixed(1)} s`);
if (result.failed) {
  console.error(fc.defaultReportMessage(result));
  process.exit(1);
}
console.log('no contract violation; getblockcount answers 20');
