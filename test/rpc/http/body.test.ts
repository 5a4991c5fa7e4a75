import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BodyError, readBudgetedBody, readBudgetedBodyThen } from '../../../src/rpc/http/body.js';
import { MemoryBudget } from '../../../src/rpc/http/memory-budget.js';

/** A request stream that delivers `text` one byte per chunk, each a view into a 64 KiB read buffer, as a socket does. */
function bytePerChunk(text: string): Readable {
  const parent = Buffer.alloc(65536);
  parent.write(text, 'latin1');
  let i = 0;
  return new Readable({
    read() {
      if (i < text.length) this.push(parent.subarray(i, ++i));
      else this.push(null);
    },
  });
}

describe('request bodies read under the body budget', () => {
  const text = '{"id":1,"method":"getblockcount","params":[]}'.padEnd(20_000, ' ');

  it('keeps a body sent a byte per chunk as one buffer of its own, reserving exactly its size', async () => {
    const budget = new MemoryBudget(1 << 20);
    const read = await readBudgetedBody(bytePerChunk(text), null, budget);
    expect(read.body.toString('latin1')).toBe(text);
    expect(read.reserved).toBe(text.length);
    expect(budget.inUse).toBe(text.length);
    // Not a view of the socket's read buffer: the chunks' parent is not kept alive by the body.
    expect(read.body.buffer.byteLength).toBeLessThan(65536);
  });

  it('reads a declared length into one buffer of that size', async () => {
    const budget = new MemoryBudget(1 << 20);
    const read = await readBudgetedBody(bytePerChunk(text), text.length, budget);
    expect([read.body.toString('latin1'), read.reserved, budget.inUse]).toEqual([text, text.length, text.length]);
  });

  it('hands on a declared length once its last byte has arrived, before the stream ends, and no longer listens to it', async () => {
    const budget = new MemoryBudget(1 << 20);
    const stream = new Readable({ read() {} });
    let got: string | null = null;
    readBudgetedBodyThen(stream, 5, budget, undefined, (error, read) => {
      expect(error).toBeNull();
      got = read!.body.toString('latin1');
    });
    stream.push(Buffer.from('ab'));
    await new Promise((r) => setImmediate(r));
    expect(got).toBeNull();
    stream.push(Buffer.from('cde'));
    // In the same turn as the byte that completes it: no 'end' awaited.
    expect(got).toBe('abcde');
    expect([stream.listenerCount('data'), stream.listenerCount('end'), stream.listenerCount('close')]).toEqual([0, 0, 0]);
    expect(stream.readableEnded).toBe(false);
  });

  it('refuses a chunked body whose growth the budget cannot hold, and gives back what it had reserved', async () => {
    const budget = new MemoryBudget(16_384);
    const refused = readBudgetedBody(bytePerChunk(text), null, budget);
    await expect(refused).rejects.toBeInstanceOf(BodyError);
    await expect(refused).rejects.toMatchObject({ statusCode: 413 });
    expect(budget.inUse).toBe(0);
  });

  it('counts a chunked body by the memory it occupies: a doubling buffer never over the budget', async () => {
    // 20,000 bytes need a 32 KiB buffer while growing (4 KiB doubled): refused under 32 KiB, taken at it.
    await expect(readBudgetedBody(bytePerChunk(text), null, new MemoryBudget(32_767))).rejects.toBeInstanceOf(BodyError);
    const budget = new MemoryBudget(32_768);
    expect((await readBudgetedBody(bytePerChunk(text), null, budget)).body.length).toBe(text.length);
  });

  it('holds no object per chunk while a body arrives a byte at a time', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const total = 400_000;
    let heapWhileReading = 0;
    let heapBefore = 0;
    const parent = Buffer.alloc(65536, 0x20);
    let i = 0;
    const stream = new Readable({
      read() {
        if (i === total / 2) {
          // Half-way: what the reader holds now is what a slow client makes it hold.
          gc();
          heapWhileReading = process.memoryUsage().heapUsed;
        }
        if (i++ < total) this.push(parent.subarray(i % 65536, (i % 65536) + 1));
        else this.push(null);
      },
    });
    gc();
    heapBefore = process.memoryUsage().heapUsed;
    const read = await readBudgetedBody(stream, null, new MemoryBudget(1 << 20));
    expect(read.body.length).toBe(total);
    // One Buffer view per byte would be tens of megabytes of heap at this point.
    expect(heapWhileReading - heapBefore).toBeLessThan(8 << 20);
  });

  it('returns an empty body for an empty stream', async () => {
    const budget = new MemoryBudget(1024);
    const read = await readBudgetedBody(Readable.from([]), null, budget);
    expect([read.body.length, read.reserved, budget.inUse]).toEqual([0, 0, 0]);
  });
});
