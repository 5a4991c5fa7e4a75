import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FailedAuthPenalty } from '../../../src/rpc/http/auth-penalty.js';
import type { RunningRpcServer } from '../../../src/rpc/http/server.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { postJsonRpc, startOneWorkerServer } from '../../support/http-rpc.js';

const RIGHT = 'Basic ' + Buffer.from('alice:secret').toString('base64');
const WRONG = 'Basic ' + Buffer.from('alice:guess').toString('base64');

describe('the wrong-credentials penalty: a timer with bounded concurrency, not a work-queue slot', () => {
  const limits = { ms: 50, maxPending: 4, maxPerAddress: 2 };
  const check = (a: string) => a === RIGHT;

  it('refuses wrong credentials after the delay, and checks at most maxPerAddress at once for one address', async () => {
    const checked: string[] = [];
    const penalty = new FailedAuthPenalty(limits);
    const counting = (a: string) => (checked.push(a), check(a));
    const verdicts = await Promise.all([1, 2, 3].map(() => penalty.authenticate(WRONG, '10.0.0.1', counting)));
    expect(verdicts).toEqual(['refused', 'refused', 'busy']);
    // The third was turned away without its credentials being looked at.
    expect(checked).toHaveLength(2);
    expect(penalty.running).toBe(0);
  });

  it('bounds the penalties of all addresses together by maxPending', async () => {
    const penalty = new FailedAuthPenalty(limits);
    const verdicts = await Promise.all(['a', 'a', 'b', 'b', 'c'].map((address) => penalty.authenticate(WRONG, address, check)));
    expect(verdicts).toEqual(['refused', 'refused', 'refused', 'refused', 'busy']);
  });

  it('still checks and grants a header granted before, while the penalties are full; a new one waits its turn', async () => {
    let busyLogged = 0;
    const penalty = new FailedAuthPenalty(limits, (n) => (busyLogged += n));
    expect(await penalty.authenticate(RIGHT, 'x', check)).toBe('granted');
    const flood = [1, 2, 3, 4].map((i) => penalty.authenticate(WRONG, `flood-${i}`, check));
    expect(penalty.running).toBe(4);
    expect(await penalty.authenticate(RIGHT, 'x', check)).toBe('granted');
    const other = 'Basic ' + Buffer.from('bob:secret').toString('base64');
    expect(await penalty.authenticate(other, 'y', (a) => a === other)).toBe('busy');
    expect(busyLogged).toBe(1);
    expect(await Promise.all(flood)).toEqual(['refused', 'refused', 'refused', 'refused']);
    expect(await penalty.authenticate(other, 'y', (a) => a === other)).toBe('granted');
  });

  it('answers a missing header at once', async () => {
    expect(await new FailedAuthPenalty(limits).authenticate(undefined, 'x', check)).toBe('missing');
  });
});

describe('a wrong-password flood against a server with one worker and a queue of one', () => {
  let server: RunningRpcServer;
  const echo: RpcMethod = {
    name: 'echo',
    category: 'util',
    required: 1,
    optional: 0,
    help: 'echo "x"\n',
    call: (p) => JSON.stringify(p[0]),
  };

  let close: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    ({ server, close } = await startOneWorkerServer([echo]));
  });
  afterAll(async () => {
    await close();
  });

  const call = (auth: string, id: number) => postJsonRpc(server.port, auth, JSON.stringify({ id, method: 'echo', params: [`n${id}`] }));

  it('serves every authenticated call while wrong credentials keep the penalties full', async () => {
    expect((await call(RIGHT, 0)).status).toBe(200);
    let flooding = true;
    const wrongStatuses = new Map<number, number>();
    const flooder = async () => {
      while (flooding) {
        const { status } = await call(WRONG, -1);
        wrongStatuses.set(status, (wrongStatuses.get(status) ?? 0) + 1);
      }
    };
    const flooders = Array.from({ length: 24 }, flooder);
    const answers = [];
    for (let i = 1; i <= 40; i++) answers.push(await call(RIGHT, i));
    flooding = false;
    await Promise.all(flooders);
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
    expect(answers.map((a) => a.body)).toEqual(Array.from({ length: 40 }, (_, i) => `{"result":"n${i + 1}","error":null,"id":${i + 1}}\n`));
    // Every wrong attempt was refused: after the penalty (401) or unchecked while the penalties were full (500).
    expect([...wrongStatuses.keys()].every((s) => s === 401 || s === 500)).toBe(true);
    expect(wrongStatuses.get(401)).toBeGreaterThan(0);
  });
});
