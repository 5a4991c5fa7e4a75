// Pending writes fold operations per key in a byte arena with its own hash table: whatever the
// keys (equal tails, equal hashes' neighbours, lengths from 1 to 100 bytes) and however the
// tables grow, lookups and the folded batch must equal a plain Map that applies the same
// operations in order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BatchOp, PlainOp } from '../../src/store/block-data.js';
import { PackedOps } from '../../src/store/packed-ops.js';
import { hashKey, PendingWrites } from '../../src/store/pending-writes.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** Keys that differ only in one byte near the front, among many bytes they share. */
const key = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 100, size: 'max' }),
  fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 3 })).map(([front, length]) => {
    const k = new Uint8Array(length * 20).fill(7);
    k[1] = front;
    return k;
  }),
);

const op: fc.Arbitrary<PlainOp> = fc.oneof(
  fc.record({
    type: fc.constant('put' as const),
    key: key.map((k) => Buffer.from(k)),
    value: fc.uint8Array({ maxLength: 300, size: 'max' }),
  }),
  fc.record({ type: fc.constant('del' as const), key: key.map((k) => Buffer.from(k)) }),
);

/** The same operations as one packed operation (how the address index hands over its rows). */
function packed(ops: readonly PlainOp[]): BatchOp {
  const rows = new PackedOps(8);
  for (const o of ops) {
    // Reserve first: a reservation may move the rows to a larger buffer.
    if (o.type === 'del') {
      const at = rows.del(o.key.length);
      rows.buffer.set(o.key, at);
    } else {
      const at = rows.put(o.key.length, o.value.length, o.fresh === true);
      rows.buffer.set(o.key, at);
      rows.buffer.set(o.value, at + o.key.length);
    }
  }
  return { type: 'packed', rows };
}

describe('PendingWrites', () => {
  it('folds like a Map applying the operations in order (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(op, { maxLength: 60, size: 'max' }), fc.boolean()), { maxLength: 40, size: 'max' }),
        fc.boolean(),
        (blocks, hinted) => {
          const pending = new PendingWrites(hinted ? { rows: 5000, bytes: 1 << 20 } : undefined);
          const model = new Map<string, string | null>();
          const seen: Buffer[] = [];
          for (const [ops, pack] of blocks) {
            // Some blocks hand their operations over packed in one buffer, the rest one by one.
            pending.apply(pack ? [packed(ops)] : ops);
            for (const o of ops) {
              model.set(hex(o.key), o.type === 'put' ? hex(o.value) : null);
              seen.push(o.key);
            }
          }
          expect(pending.size).toBe(model.size);
          expect(pending.blocks).toBe(blocks.length);
          for (const k of seen) {
            const got = pending.lookup(k);
            const want = model.get(hex(k));
            expect(got === null ? null : hex(got!)).toBe(want);
          }
          expect(pending.lookup(Buffer.from('absent key of its own length, 41 bytes long'))).toBeUndefined();
          const batch = [...pending.batch()];
          expect(batch.map((o) => hex(o.key))).toEqual([...model.keys()]);
          for (const o of batch) expect(o.type === 'put' ? hex(o.value) : null).toBe(model.get(hex(o.key)));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps its rows through table and arena growth, and what lookup returned keeps its bytes', () => {
    const pending = new PendingWrites();
    const keyOf = (i: number): Buffer => {
      const k = Buffer.alloc(37, 0x63);
      k.writeUInt32LE(i, 33);
      return k;
    };
    const first = Buffer.from('first value');
    pending.apply([{ type: 'put', key: keyOf(0), value: first }]);
    const before = pending.lookup(keyOf(0))!;
    // The caller's buffer is copied: reusing it changes nothing pending.
    first.fill(0);
    const n = 50_000;
    for (let i = 0; i < n; i++) pending.apply([{ type: 'put', key: keyOf(i), value: Buffer.alloc(40, i & 0xff) }], { block: false });
    for (let i = 0; i < n; i += 2) pending.apply([{ type: 'del', key: keyOf(i) }], { block: false });
    expect(before.toString()).toBe('first value');
    expect(pending.size).toBe(n);
    expect(pending.blocks).toBe(1);
    expect(pending.lookup(keyOf(0))).toBeNull();
    expect(pending.lookup(keyOf(n - 1))).toEqual(Buffer.alloc(40, (n - 1) & 0xff));
    expect(pending.footprint.rows).toBe(n);
    let puts = 0;
    for (const o of pending.batch()) if (o.type === 'put') puts++;
    expect(puts).toBe(n / 2);
    expect(pending.bytes).toBe(n * (37 + 40) + 37 + first.length + (n / 2) * 37);
  });

  it('starts a group with room for a quarter more than the group before it held, in bytes and rows', () => {
    // A group like an import's: packed rows of a block at a time, as the indexers hand them over.
    const fill = (pending: PendingWrites, blocks: number, tag: number): void => {
      for (let b = 0; b < blocks; b++) {
        const rows = new PackedOps();
        for (let i = 0; i < 100; i++) {
          const at = rows.put(37, 60, true);
          rows.buffer.fill(tag, at, at + 37);
          rows.buffer.writeUInt32LE(b * 100 + i, at + 33);
          rows.buffer.fill(i, at + 37, at + 37 + 60);
        }
        pending.apply([{ type: 'packed', rows }]);
      }
    };
    // 14,000 rows: a table of 16,384 would hold them exactly, and 16,800 would outgrow it.
    const before = new PendingWrites();
    fill(before, 140, 1);
    const next = new PendingWrites(before.footprint);
    const startMemory = next.memoryBytes;
    fill(next, 168, 2);
    expect(next.size).toBe(16_800);
    expect(next.memoryBytes).toBe(startMemory);
    // Beyond the headroom it grows, and keeps every row.
    fill(next, 60, 3);
    expect(next.memoryBytes).toBeGreaterThan(startMemory);
    expect(next.size).toBe(22_800);
  });

  it('leaves out a key a fresh put created and a later delete removed, and only such keys', () => {
    const k = (name: string): Buffer => Buffer.from(name.padEnd(36, '.'));
    const v = Buffer.from('value');
    const pending = new PendingWrites();
    pending.apply([
      { type: 'put', key: k('created then spent'), value: v, fresh: true },
      { type: 'put', key: k('created, kept'), value: v, fresh: true },
      { type: 'put', key: k('overwritten then deleted'), value: v },
      { type: 'del', key: k('deleted, recreated fresh, deleted') },
    ]);
    pending.apply([
      { type: 'del', key: k('created then spent') },
      { type: 'del', key: k('overwritten then deleted') },
      { type: 'put', key: k('deleted, recreated fresh, deleted'), value: v, fresh: true },
      { type: 'put', key: k('created, respent, recreated'), value: v, fresh: true },
    ]);
    pending.apply([
      { type: 'del', key: k('deleted, recreated fresh, deleted') },
      { type: 'del', key: k('created, respent, recreated') },
      { type: 'put', key: k('created, respent, recreated'), value: Buffer.from('again'), fresh: true },
    ]);
    // Readers see every deletion as one (the store never had the dropped key either).
    expect(pending.lookup(k('created then spent'))).toBeNull();
    expect(pending.size).toBe(5);
    expect(
      [...pending.batch()].map((o) => `${o.type} ${o.key.toString().replace(/\.+$/, '')}${o.type === 'put' ? ` ${o.value}` : ''}`),
    ).toEqual([
      'put created, kept value',
      'del overwritten then deleted',
      'del deleted, recreated fresh, deleted',
      'put created, respent, recreated again',
    ]);
  });

  it('with appendUnique, writes unique packed rows after the folded ones and keeps them out of lookups (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(op, { maxLength: 30, size: 'max' }), fc.integer({ min: 0, max: 20 })), { maxLength: 30, size: 'max' }),
        (blocks) => {
          const grouped = new PendingWrites(undefined, { appendUnique: true });
          const folding = new PendingWrites();
          const model = new Map<string, string | null>();
          const unique = new Map<string, string>();
          let serial = 0;
          for (const [ops, uniques] of blocks) {
            // Unique keys: a length and first byte no generated key has (keys of 101 bytes).
            const rows = new PackedOps(8);
            for (const o of ops) {
              const at = o.type === 'del' ? rows.del(o.key.length) : rows.put(o.key.length, o.value.length, o.fresh === true);
              rows.buffer.set(o.key, at);
              if (o.type === 'put') rows.buffer.set(o.value, at + o.key.length);
              model.set(hex(o.key), o.type === 'put' ? hex(o.value) : null);
            }
            for (let u = 0; u < uniques; u++) {
              const key = Buffer.alloc(101, 0xee);
              key.writeUInt32LE(serial++, 97);
              const value = Buffer.from(`unique ${serial}`);
              const at = rows.unique(key.length, value.length);
              rows.buffer.set(key, at);
              rows.buffer.set(value, at + key.length);
              unique.set(hex(key), hex(value));
            }
            grouped.apply([{ type: 'packed', rows }]);
            folding.apply([{ type: 'packed', rows }]);
          }
          const batch = grouped.batch();
          const folded = batch.slice(0, model.size);
          expect(folded.map((o) => hex(o.key))).toEqual([...model.keys()]);
          for (const o of folded) expect(o.type === 'put' ? hex(o.value) : null).toBe(model.get(hex(o.key)));
          // Then every unique row, in the order given.
          expect(batch.slice(model.size).map((o) => [hex(o.key), o.type === 'put' ? hex(o.value) : null])).toEqual([...unique]);
          expect(grouped.size).toBe(model.size + unique.size);
          for (const k of unique.keys()) expect(grouped.lookup(Buffer.from(k, 'hex'))).toBeUndefined();
          // Without appendUnique the same rows fold as fresh puts: same final contents.
          const asMap = (ops: PlainOp[]) => new Map(ops.map((o) => [hex(o.key), o.type === 'put' ? hex(o.value) : null]));
          expect(asMap(folding.batch())).toEqual(asMap(batch));
          for (const [k, v] of unique) expect(hex(folding.lookup(Buffer.from(k, 'hex'))!)).toBe(v);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('spreads keys that differ only in their leading bytes over the table (nullifier rows whose counter leads)', () => {
    // `N` ‖ pool ‖ nullifier: nullifiers alike but for a counter in their first four bytes, as
    // era-chain.ts builds them. Hashes that skip those bytes put every such key in one slot chain.
    const slotBits = 16;
    const slots = new Set<number>();
    const hashes = new Set<number>();
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const key = Buffer.alloc(34);
      key[0] = 0x4e;
      key[1] = 1;
      key.writeUInt32LE(i, 2);
      key[7] = 0x5b;
      const h = hashKey(key);
      hashes.add(h);
      slots.add(h & ((1 << slotBits) - 1));
    }
    expect(hashes.size).toBe(n);
    // Random placement of 20,000 keys in 65,536 slots fills about 17,500 of them.
    expect(slots.size).toBeGreaterThan(17_000);
  });

  it('hashes every byte: keys one byte apart anywhere hash apart', () => {
    for (const length of [1, 3, 4, 5, 34, 37, 67]) {
      const base = new Uint8Array(length).fill(0xa5);
      const seen = new Set<number>([hashKey(base)]);
      for (let i = 0; i < length; i++) {
        const k = base.slice();
        k[i] = k[i]! ^ 1;
        seen.add(hashKey(k));
      }
      expect(seen.size).toBe(length + 1);
    }
  });
});
