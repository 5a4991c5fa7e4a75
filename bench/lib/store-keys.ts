/** Keys in a store's LevelDB, in all and per prefix byte (a key's table: src/store/layout.ts). */
import { ClassicLevel } from 'classic-level';

export interface StoreKeyCount {
  count: number;
  complete: boolean;
  by_prefix: Record<string, number>;
}

export async function countKeys(path: string): Promise<StoreKeyCount> {
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' });
  await db.open();
  const byPrefix = new Map<number, number>();
  let count = 0;
  const it = db.keys();
  try {
    for (let batch = await it.nextv(10_000); batch.length > 0; batch = await it.nextv(10_000)) {
      count += batch.length;
      for (const key of batch) byPrefix.set(key[0]!, (byPrefix.get(key[0]!) ?? 0) + 1);
    }
  } finally {
    await it.close();
    await db.close();
  }
  const name = (b: number) => (b >= 0x21 && b < 0x7f ? String.fromCharCode(b) : `0x${b.toString(16)}`);
  return { count, complete: true, by_prefix: Object.fromEntries([...byPrefix].sort((a, b) => a[0] - b[0]).map(([b, n]) => [name(b), n])) };
}
