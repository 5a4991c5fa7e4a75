/**
 * The uncached render floor (bench/lib/render-floor-server.ts) builds its replies from the
 * request's hex or the transaction's bytes on every request: it must answer each exactly as
 * recorded, again and again from reused memory and under concurrent requests, do its work on
 * every request, and refuse to start when a reply's txid or auth digest is not the hash of the
 * transaction it would decode.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '../../bench/lib/child-server.js';
import { largeTransactions } from '../../bench/lib/large-transactions.js';
import { addressPlan, FLOOR_WORK, floorPlan, pointPlaces, ReplyMemory, type FloorWork } from '../../bench/lib/render-floor-plans.js';
import type { RecordedReply } from '../../bench/lib/recorded-replies.js';
import { captureReply, replyParts } from '../../bench/lib/raw-http.js';
import { processCpuMicros, processesCpuMicros } from '../../bench/lib/process-cpu.js';
import { TESTNET } from '../../src/chain/network.js';
import { toHex } from '../../src/codec/hex.js';
import { isValidPallasPointBigint } from '../../src/crypto/curves.js';
import { txToJsonBytes } from '../../src/render/tx.js';

const rpc = (method: string, params: string): string => `{"jsonrpc":"1.0","id":1,"method":"${method}","params":[${params}]}`;
const HEAD = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n';

/** A whole recorded HTTP reply around `result`, base64 as the replies file holds it. */
const recorded = (result: Buffer): string =>
  Buffer.concat([Buffer.from(HEAD), Buffer.from('{"result":'), result, Buffer.from(',"error":null,"id":1}\n')]).toString('base64');

const txs = largeTransactions().filter((t) => t.name === 'test-141042#1' || t.name === 'main-3428145#3');
/** Each body with the reply body the floor must give. */
const exchanges: { body: string; want: Buffer }[] = [];
for (const t of txs) {
  const json = txToJsonBytes(t.tx, t.params);
  exchanges.push({ body: rpc('decoderawtransaction', `"${toHex(t.tx.bytes)}"`), want: json });
  // getrawtransaction's verbose layout: the transaction's hex first, then decoderawtransaction's fields.
  exchanges.push({
    body: rpc('getrawtransaction', `"${t.tx.txidHex}",1`),
    want: Buffer.concat([Buffer.from(`{"hex":"${toHex(t.tx.bytes)}",`), json.subarray(1)]),
  });
}
const whole = (want: Buffer): Buffer => Buffer.concat([Buffer.from('{"result":'), want, Buffer.from(',"error":null,"id":1}\n')]);

describe('the uncached render floor', () => {
  let dir: string;
  let floor: ChildServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zecrpc-render-floor-'));
    const file = join(dir, 'replies.json');
    writeFileSync(file, JSON.stringify(exchanges.map((e) => ({ body: e.body, reply: recorded(e.want) }))));
    floor = await startChildServer('bench/lib/render-floor-server.ts', { REPLIES: file });
  });
  afterAll(async () => {
    await floor?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers each request with the recorded bytes, one after the other and eight at once', async () => {
    for (let round = 0; round < 3; round++) {
      for (const e of exchanges) expect(replyParts(await captureReply(floor.port, e.body)).body.equals(whole(e.want))).toBe(true);
    }
    const burst = await Promise.all(exchanges.flatMap((e) => [e, e]).map((e) => captureReply(floor.port, e.body)));
    burst.forEach((r, i) => expect(replyParts(r).body.equals(whole(exchanges[i >> 1]!.want))).toBe(true));
  });

  it('answers the same on two processes, each a floor of its own, and stops them both', async () => {
    const spread = await startChildServer('bench/lib/render-floor-server.ts', { REPLIES: join(dir, 'replies.json'), FLOOR_PROCESSES: '2' });
    const workers = spread.workers;
    try {
      expect(workers).toHaveLength(2);
      expect(new Set([spread.pid, ...workers]).size).toBe(3);
      // Eight connections at once: the primary hands them to both workers, each answering exactly.
      const burst = await Promise.all(exchanges.flatMap((e) => [e, e]).map((e) => captureReply(spread.port, e.body)));
      burst.forEach((r, i) => expect(replyParts(r).body.equals(whole(exchanges[i >> 1]!.want))).toBe(true));
      // Each worker a live process, its CPU counted with the primary's.
      const each = [spread.pid, ...workers].map((pid) => processCpuMicros(pid));
      expect(processesCpuMicros([spread.pid, ...workers])).toBeGreaterThanOrEqual(each.reduce((a, b) => a + b, 0));
    } finally {
      await spread.stop();
    }
    for (const pid of workers) expect(existsSync(`/proc/${pid}`)).toBe(false);
    expect(() => processesCpuMicros(workers)).toThrow();
  });

  it('will not start when a reply shows a txid that is not the hash of the hex it decodes', async () => {
    const t = txs[0]!;
    const json = txToJsonBytes(t.tx, t.params).toString('latin1');
    const wrongTxid = json.replace(t.tx.txidHex, '00'.repeat(32));
    expect(wrongTxid).not.toBe(json);
    const file = join(dir, 'wrong.json');
    const body = rpc('decoderawtransaction', `"${toHex(t.tx.bytes)}"`);
    writeFileSync(file, JSON.stringify([{ body, reply: recorded(Buffer.from(wrongTxid, 'latin1')) }]));
    await expect(startChildServer('bench/lib/render-floor-server.ts', { REPLIES: file })).rejects.toThrow(/exited/);
  });
});

/** FLOOR_WORK with each part's calls counted. */
function countingWork(): { work: FloorWork; calls: Record<keyof FloorWork, number> } {
  const calls = { hexDecodeInto: 0, sha256d: 0, zip244Digests: 0, hexInto: 0, pointCheck: 0, addressTexts: 0 };
  const work: FloorWork = {
    hexDecodeInto: (...a) => (calls.hexDecodeInto++, FLOOR_WORK.hexDecodeInto(...a)),
    sha256d: (...a) => (calls.sha256d++, FLOOR_WORK.sha256d(...a)),
    zip244Digests: (...a) => (calls.zip244Digests++, FLOOR_WORK.zip244Digests(...a)),
    hexInto: (...a) => (calls.hexInto++, FLOOR_WORK.hexInto(...a)),
    pointCheck: (...a) => (calls.pointCheck++, FLOOR_WORK.pointCheck(...a)),
    addressTexts: (...a) => (calls.addressTexts++, FLOOR_WORK.addressTexts(...a)),
  };
  return { work, calls };
}

const asReply = (want: Buffer): RecordedReply => ({ status: 200, type: 'application/json', body: whole(want) });

describe('the render floor’s plans', () => {
  it('do on every request the work an uncached reply cannot leave out, and write its exact bytes', () => {
    // exchanges: decoderawtransaction then getrawtransaction of test-141042#1 (v2, no transparent
    // output), then of main-3428145#3 (v6: 13 Orchard actions, each a cv and an rk to check, a
    // stored transaction's checked when it was stored; one P2PKH output). getrawtransaction hashes
    // what it read to check it is the transaction asked for.
    const expected: Record<keyof FloorWork, number>[] = [
      { hexDecodeInto: 1, sha256d: 1, zip244Digests: 0, hexInto: 0, pointCheck: 0, addressTexts: 0 },
      { hexDecodeInto: 0, sha256d: 1, zip244Digests: 0, hexInto: 1, pointCheck: 0, addressTexts: 0 },
      { hexDecodeInto: 1, sha256d: 0, zip244Digests: 1, hexInto: 0, pointCheck: 26, addressTexts: 1 },
      { hexDecodeInto: 0, sha256d: 0, zip244Digests: 1, hexInto: 1, pointCheck: 0, addressTexts: 1 },
    ];
    exchanges.forEach((e, i) => {
      const { work, calls } = countingWork();
      const build = floorPlan(Buffer.from(e.body), asReply(e.want), work)!;
      const atStart = { ...calls };
      const out = Buffer.alloc(whole(e.want).length, 0x20);
      for (let n = 0; n < 3; n++) {
        out.fill(0x20);
        build(Buffer.from(e.body), out);
        expect(out.equals(whole(e.want))).toBe(true);
      }
      const perRequest = Object.fromEntries(Object.entries(calls).map(([k, v]) => [k, (v - atStart[k as keyof FloorWork]) / 3]));
      expect(perRequest).toEqual(expected[i]);
    });
  });

  it('check the points where the decoder does, each a view of the decoded bytes, and refuse an invalid one', () => {
    const t = txs[1]!;
    const actions = t.tx.data.orchard!.actions;
    const places = pointPlaces(t.tx.bytes);
    expect(places.map((p) => p.kind)).toEqual(actions.flatMap(() => ['pallas', 'pallas']));
    expect(places.map((p) => toHex(t.tx.bytes.subarray(p.at, p.at + 32)))).toEqual(actions.flatMap((a) => [toHex(a.cv), toHex(a.rk)]));
    const body = Buffer.from(rpc('decoderawtransaction', `"${toHex(t.tx.bytes)}"`));
    let seen = 0;
    const refusing: FloorWork = { ...FLOOR_WORK, pointCheck: (kind, point) => ++seen < 7 && FLOOR_WORK.pointCheck(kind, point) };
    expect(() => floorPlan(body, asReply(txToJsonBytes(t.tx, t.params)), refusing)).toThrow(/invalid pallas point/);
    // The real check gives the decoder's verdicts (checked against the BigInt one): x = 1…16, some off the curve.
    const verdicts = Array.from({ length: 16 }, (_, x) => Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? x + 1 : 0))).map((p) => [
      FLOOR_WORK.pointCheck('pallas', p),
      isValidPallasPointBigint(p),
    ]);
    for (const [floor, reference] of verdicts) expect(floor).toBe(reference);
    expect(verdicts.some(([v]) => v) && verdicts.some(([v]) => !v)).toBe(true);
  });

  it('compute every address the reply shows, in batches the module holds, with the prefixes of the reply’s network', () => {
    const payout = largeTransactions().find((t) => t.name === 'main-171059#3')!;
    const body = Buffer.from(rpc('decoderawtransaction', `"${toHex(payout.tx.bytes)}"`));
    for (const params of [payout.params, TESTNET]) {
      const json = txToJsonBytes(payout.tx, params);
      const { work, calls } = countingWork();
      const build = floorPlan(body, asReply(json), work)!;
      const atStart = calls.addressTexts;
      build(body, Buffer.alloc(whole(json).length));
      // 1,500 P2PKH outputs: batches of 1,024 and 476.
      expect(calls.addressTexts - atStart).toBe(2);
      const plan = addressPlan(payout.tx.bytes, asReply(json), FLOOR_WORK);
      expect(plan.count).toBe(1_500);
    }
    // The first address's text, one character off (its checksum then fails): the floor refuses to start.
    const json = txToJsonBytes(payout.tx, payout.params).toString('latin1');
    const first = /"addresses":\["(t1[1-9A-HJ-NP-Za-km-z]+)"/.exec(json)![1]!;
    const changed = first.slice(0, -1) + (first.endsWith('z') ? 'y' : 'z');
    expect(() => floorPlan(body, asReply(Buffer.from(json.replace(first, changed), 'latin1')))).toThrow(/does not show the addresses/);
  });

  it('refuse a transaction with an output whose shown address they would not compute (P2PK)', () => {
    // v1: one input (a null prevout, empty script), one output paying to a compressed key, locktime 0.
    const p2pk = Buffer.concat([Buffer.from([0x21, 0x02]), Buffer.alloc(32, 0x11), Buffer.from([0xac])]);
    const tx = Buffer.concat([
      Buffer.from('01000000' + '01' + '00'.repeat(32) + 'ffffffff' + '00' + 'ffffffff' + '01' + '0100000000000000' + '23', 'hex'),
      p2pk,
      Buffer.from('00000000', 'hex'),
    ]);
    expect(() => addressPlan(tx, asReply(Buffer.from('{}')), FLOOR_WORK)).toThrow(/P2PKH and P2SH addresses only, not a pubkey output/);
  });

  it('refuse a getrawtransaction reply whose txid is not the hash of its hex', () => {
    const t = txs[0]!;
    const json = txToJsonBytes(t.tx, t.params).toString('latin1').replace(t.tx.txidHex, '22'.repeat(32));
    const body = Buffer.from(rpc('getrawtransaction', `"${t.tx.txidHex}",1`));
    const reply = Buffer.concat([Buffer.from(`{"hex":"${toHex(t.tx.bytes)}",`), Buffer.from(json, 'latin1').subarray(1)]);
    expect(() => floorPlan(body, asReply(reply))).toThrow(/hashed txid/);
  });

  it('replay a method they do not build (getblock)', () => {
    expect(floorPlan(Buffer.from(rpc('getblock', '"00",2')), asReply(Buffer.from('{}')))).toBeNull();
  });

  it('refuse a v6 reply whose auth digest is not the one hashed', () => {
    const t = txs[1]!;
    const json = txToJsonBytes(t.tx, t.params).toString('latin1');
    const wrong = json.replace(Buffer.from(t.tx.authDigest).reverse().toString('hex'), '11'.repeat(32));
    expect(wrong).not.toBe(json);
    const body = Buffer.from(rpc('decoderawtransaction', `"${toHex(t.tx.bytes)}"`));
    expect(() => floorPlan(body, asReply(Buffer.from(wrong, 'latin1')))).toThrow(/auth digest/);
  });
});

describe('the render floor’s reply memory', () => {
  it('hands a buffer out again only once it is given back, and only for its size', () => {
    const memory = new ReplyMemory();
    const a = memory.take(1000);
    const b = memory.take(1000);
    expect(b).not.toBe(a);
    memory.giveBack(a);
    expect(memory.take(2000)).not.toBe(a);
    expect(memory.take(1000)).toBe(a);
    expect(memory.take(1000)).not.toBe(a);
  });
});
