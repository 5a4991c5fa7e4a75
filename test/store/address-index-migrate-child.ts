// Child process for the kill -9 migration test: upgrades a version-2 store (chain state, version 3,
// then the address index, version 4) in small chunks, printing each committed position with the
// version being built, until the parent kills it.
import { ClassicLevel } from 'classic-level';
import { join } from 'node:path';
import { keys } from '../../src/store/layout.js';
import { migrate } from '../../src/store/migrations/index.js';

const [datadir] = process.argv.slice(2);
const db = new ClassicLevel<Buffer, Buffer>(join(datadir!, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
await db.open();
await migrate(db, 2, 'regtest', () => undefined, {
  chunkBlocks: 3,
  afterChunk: (position) => process.stdout.write(`v${db.getSync(keys.migrationProgress(4)) ? 4 : 3}:${position}\n`),
});
await db.close();
process.stdout.write('done\n');
