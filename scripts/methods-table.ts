// Writes docs/methods.md from the method registry (src/rpc/method-table.ts):
//   npx tsx scripts/methods-table.ts
import { writeFileSync } from 'node:fs';
import { methodTableMarkdown, servedMethods } from '../src/rpc/method-table.js';

writeFileSync(new URL('../docs/methods.md', import.meta.url), methodTableMarkdown(servedMethods()));
