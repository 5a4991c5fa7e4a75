/**
 * What one coin read costs through the coins cache (src/store/committed-coins.ts), beside what
 * the LevelDB read it replaces costs (bench/results/leveldb-growth.json): GROUPS kept group
 * tables of ROWS random coin rows each (half puts, half deletions, as a group of spends and new
 * outputs), read at random keys that the oldest table holds (a hit after every newer table was
 * probed: the slowest hit) and at keys no table holds (a miss, which then goes to LevelDB).
 *
 *   npx tsx bench/coins-cache-probe.ts [--groups=8] [--rows=300000]
 */
import { randomBytes } from 'node:crypto';
import { CommittedCoins } from '../src/store/committed-coins.js';
import { chainStateKeys } from '../src/store/indexes/chain-state-index.js';
import { PendingWrites } from '../src/store/pending-writes.js';
import { cpuMicrosPerUnit, load, numberFlag } from './lib/measure.js';

const GROUPS = numberFlag('groups', 8);
const ROWS = numberFlag('rows', 300_000);
const PREFIX = chainStateKeys.coinPrefix;
const coinKey = (): Buffer => Buffer.concat([Buffer.of(PREFIX), randomBytes(36)]);

const cache = new CommittedCoins(Number.MAX_SAFE_INTEGER, PREFIX);
let oldestKeys: Buffer[] = [];
for (let g = 0; g < GROUPS; g++) {
  const group = new PendingWrites({ rows: ROWS, bytes: ROWS * 90 });
  const keys: Buffer[] = [];
  for (let i = 0; i < ROWS; i++) {
    const key = coinKey();
    if (i % 2 === 0) group.apply([{ type: 'put', key, value: randomBytes(45) }], { block: false });
    else group.apply([{ type: 'del', key }], { block: false });
    if (keys.length < 100_000) keys.push(key);
  }
  if (g === 0) oldestKeys = keys;
  cache.retain(group);
}
const absent = Array.from({ length: 100_000 }, coinKey);

let sink = 0;
const read = (keys: Buffer[]) => () => {
  for (const k of keys) if (cache.lookup(k) !== undefined) sink++;
};
const hit = cpuMicrosPerUnit(read(oldestKeys), oldestKeys.length, 5, 0.5);
const miss = cpuMicrosPerUnit(read(absent), absent.length, 5, 0.5);
console.log(
  `coins cache, ${GROUPS} groups of ${ROWS} coin rows (${(cache.bytes / 2 ** 20).toFixed(0)} MiB): ` +
    `a hit in the oldest group ${hit.toFixed(2)} µs, a miss ${miss.toFixed(2)} µs (CPU, median of 5; ${load()}) [${sink > 0 ? 'read' : 'none read'}]`,
);
