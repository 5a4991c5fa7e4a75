/**
 * How much heap parsing a request body will take, estimated from its bytes before it is parsed,
 * so that the server can reserve it (-rpcrequestmemory) or queue the request first. The scan
 * also tells the reader which of the body's long strings it need not scan again (known-strings.ts,
 * hex-runs.ts).
 */
import { Buffer } from 'node:buffer';
import type { HexRuns } from './hex-runs.js';
import type { KnownRuns } from './known-strings.js';
import { LAZY_STRING_MIN_BYTES } from './lazy-strings.js';
import { decodesAsHexAhead, isPlainRun } from './plain-strings.js';

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;

/** Bodies shorter than this count as nothing in parsedSizeEstimate (and it reads none of their bytes). */
export const ESTIMATED_BODY_MIN_BYTES = 64 * 1024;

/**
 * An upper estimate of the heap `parseJson(body)` takes, from the bytes that make values and
 * members. The weights are set from what parsing keeps for each shape of body
 * (bench/request-memory.ts, one shape per process) so that the estimate stays above it for
 * every shape the bench measures; very long numbers and single huge tokens come nearest. Bodies
 * under 64 KiB count as nothing: they cost little, and most requests are that small.
 *
 * With `known`, a long run equal to a string the server holds checked (known-strings.ts) is
 * skipped on that one comparison, and recorded there for the reader. With `hexRuns`, a long run
 * the reader would leave lazy that decodes as hex is skipped on that decode, and recorded there
 * for the reader (hex-runs.ts).
 */
export function parsedSizeEstimate(body: Uint8Array, known?: KnownRuns, hexRuns?: HexRuns): number {
  if (body.length < ESTIMATED_BODY_MIN_BYTES) return 0;
  let objects = 0;
  let arrays = 0;
  let commas = 0;
  let quotes = 0;
  let colons = 0;
  let wide = false;
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      quotes++;
      // A held string (plain, so holding none of the bytes counted below) is found by the
      // lengths its source holds: its closing quote is then known without a search of the run.
      const heldEnd = known?.matchFrom(bytes, i + 1, LAZY_STRING_MIN_BYTES) ?? -1;
      if (heldEnd >= 0) {
        i = heldEnd - 1;
        continue;
      }
      // A long run up to the next quote (a raw transaction's hex) is checked natively: when it
      // holds no byte counted below, it adds nothing and is skipped whole.
      const next = bytes.indexOf(QUOTE, i + 1);
      // A held string is plain and holds none of them. Only runs the reader would leave lazy are
      // asked for (it takes a match only there): shorter ones would pay a lookup for nothing.
      if (next - i > LAZY_STRING_MIN_BYTES && known?.match(bytes, i + 1, next) === true) {
        i = next - 1;
        continue;
      }
      // Hex holds none of them either, and deciding that by decoding it spares the decoder its pass.
      if (hexRuns !== undefined && next - i > LAZY_STRING_MIN_BYTES) {
        const text = bytes.subarray(i + 1, next);
        if (decodesAsHexAhead(text)) {
          hexRuns.record(i + 1, text);
          i = next - 1;
          continue;
        }
      }
      if (next - i > LONG_RUN && !holdsStructure(bytes, i + 1, next)) {
        if (!wide) wide = !isPlainRun(bytes, i + 1, next);
        i = next - 1;
      }
      continue;
    }
    if (c === OPEN_BRACE) objects++;
    else if (c === OPEN_BRACKET) arrays++;
    else if (c === COMMA) commas++;
    else if (c === COLON) colons++;
    else if (c >= 0x80 || c === BACKSLASH) wide = true;
  }
  // A string holding one character above U+00FF (raw or escaped) is two bytes a character in
  // V8, its ASCII too: with any such byte, the body's bytes count two and a half times.
  return Math.ceil((wide ? 2.5 : 1) * body.length) + 256 * objects + 224 * arrays + 80 * commas + 32 * quotes + 32 * colons;
}

/** Runs between two quotes longer than this are checked with native scans rather than byte by byte. */
const LONG_RUN = 256;

/** Whether bytes[start, end) holds a byte parsedSizeEstimate counts: `{`, `[`, `,` or `:`. */
function holdsStructure(bytes: Buffer, start: number, end: number): boolean {
  const run = bytes.subarray(start, end);
  return run.indexOf(OPEN_BRACE) >= 0 || run.indexOf(OPEN_BRACKET) >= 0 || run.indexOf(COMMA) >= 0 || run.indexOf(COLON) >= 0;
}
