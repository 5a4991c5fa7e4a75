/** `npm run docs:compat`: writes docs/compatibility.md from the compatibility registry. */
import { writeFileSync } from 'node:fs';
import { compatibilityDoc } from '../src/compat/compatibility-doc.js';

const path = new URL('../docs/compatibility.md', import.meta.url);
writeFileSync(path, compatibilityDoc());
process.stdout.write(`wrote ${path.pathname}\n`);
