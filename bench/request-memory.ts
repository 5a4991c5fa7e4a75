/**
 * The parsed-request estimate against what parsing really keeps.
 *
 * A large request's parsed form is reserved from the request-memory pool before it is parsed
 * (`parsedSizeEstimate` in src/json/reader.ts), so the estimate must not fall below what
 * `parseJson` keeps alive. For each shape of body below (about 2 million values each), a child
 * process parses it and measures the heap and buffer memory the parsed value keeps (full
 * collections before and after, the value still referenced); the figure is that memory beside
 * the estimate, and a ratio of at least 1× means the pool reserves enough.
 *
 * Run: npx tsx bench/request-memory.ts
 */
import { fileURLToPath } from 'node:url';
import { parseJson } from '../src/json/reader.js';
import { parsedSizeEstimate } from '../src/json/size-estimate.js';
import { load, QUICK } from './lib/measure.js';
import { measureInChild, settledMemory } from './lib/memory.js';

const VALUES = QUICK ? 200_000 : 2_000_000;
const list = (n: number, item: string) => '[' + Array<string>(n).fill(item).join(',') + ']';

/** Bodies by shape: number-heavy ones, containers, strings and JSON-RPC batches. */
const SHAPES: Record<string, () => string> = {
  'numbers, 1 digit': () => list(VALUES, '1'),
  'numbers, 8 digits': () => list(VALUES, '12345678'),
  'numbers, 1e308': () => list(VALUES, '1e308'),
  'arrays of one number': () => list(VALUES, '[1]'),
  'empty arrays': () => list(VALUES, '[]'),
  'empty objects': () => list(VALUES, '{}'),
  'objects of one number': () => list(VALUES, '{"a":1}'),
  'objects of 8 numbers': () =>
    list(
      VALUES / 8,
      '{"alpha1":12345678,"alpha2":12345678,"alpha3":12345678,"alpha4":12345678,"alpha5":12345678,"alpha6":12345678,"alpha7":12345678,"alpha8":12345678}',
    ),
  'strings, 8 characters': () => list(VALUES, '"abcdefgh"'),
  'one long string with a character above U+00FF': () => `["\u0101${'a'.repeat(10 * VALUES)}"]`,
  'strings with an escaped newline': () => list(VALUES / 10, `"${'a'.repeat(30)}\\n"`),
  'arrays nested 100 deep': () => list(VALUES / 100, '['.repeat(100) + '1' + ']'.repeat(100)),
  'getblockcount calls': () => list(VALUES / 10, '{"jsonrpc":"1.0","id":1,"method":"getblockcount","params":[]}'),
  'getblock calls': () =>
    list(
      VALUES / 10,
      '{"jsonrpc":"1.0","id":"curltest","method":"getblock","params":["00040fe8ec8471911baa1db1266ea15dd06b4a8a5c453883c000b031973dce08",2]}',
    ),
};

/** In a child: one shape's body, what its parse keeps, and the estimate, as a JSON line. */
async function measure(shape: string): Promise<void> {
  const body = Buffer.from(SHAPES[shape]!());
  const before = await settledMemory();
  const value = parseJson(body);
  const held = (await settledMemory()) - before;
  if (value === undefined) throw new Error('nothing parsed');
  console.log(JSON.stringify({ body: body.length, held, estimate: parsedSizeEstimate(body) }));
}

function main(): void {
  console.log(`parsed-request estimate against the memory a parse keeps, one shape a process (${load()})`);
  for (const shape of Object.keys(SHAPES)) {
    const r = measureInChild<{ body: number; held: number; estimate: number }>(
      fileURLToPath(import.meta.url),
      { REQUEST_MEMORY_SHAPE: shape },
      process.argv.slice(2), // --quick sizes the child's bodies too
      shape,
    );
    const mb = (n: number) => (n / 1e6).toFixed(1);
    console.log(
      `${shape}: body ${mb(r.body)} MB, parse keeps ${mb(r.held)} MB, estimate ${mb(r.estimate)} MB → estimate ÷ kept ${(r.estimate / r.held).toFixed(2)}×`,
    );
  }
}

const shape = process.env.REQUEST_MEMORY_SHAPE;
if (shape) await measure(shape);
else main();
