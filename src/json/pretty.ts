/**
 * zcash-cli's pretty form: UniValue `write(indent)` (src/univalue/lib/univalue_write.cpp).
 *
 * - `{` / `[` end their line; each member or element on its own line, indented `indent`
 *   spaces per level; `"key": value`; `,` right after every value but the last; the closing
 *   bracket on its own line at the parent's indentation.
 * - Empty containers are NOT `{}` / `[]`: UniValue still writes the newline, so an empty
 *   object prints as `{` newline, parent indentation, `}`.
 * - No trailing newline. zcash-cli prints the text followed by one `\n` (that is the newline
 *   ending the zcashd-2019 golden files); it belongs to the CLI's output, not to this text.
 * - `indent` 0 is the compact form, as in UniValue.
 */
import { JsonNumber, type JsonValue } from './value.js';
import { quoteJsonString } from './writer.js';
import { JsonParseError } from './reader.js';

/** `v.write(indent)`. */
export function writePretty(v: JsonValue, indent = 2): string {
  const parts: string[] = [];
  writeValue(v, indent, 1, parts);
  return parts.join('');
}

/** `level` is UniValue's indentLevel: members of a container at level L are indented L·indent. */
function writeValue(v: JsonValue, indent: number, level: number, out: string[]): void {
  if (v === null) out.push('null');
  else if (typeof v === 'string') out.push(quoteJsonString(v));
  else if (typeof v === 'boolean') out.push(v ? 'true' : 'false');
  else if (v instanceof JsonNumber) out.push(v.text);
  else if (Array.isArray(v)) {
    out.push(indent ? '[\n' : '[');
    const pad = ' '.repeat(indent * level);
    v.forEach((item, i) => {
      if (indent) out.push(pad);
      writeValue(item, indent, level + 1, out);
      if (i !== v.length - 1) out.push(',');
      if (indent) out.push('\n');
    });
    if (indent) out.push(' '.repeat(indent * (level - 1)));
    out.push(']');
  } else {
    out.push(indent ? '{\n' : '{');
    const pad = ' '.repeat(indent * level);
    const entries = v.entries;
    entries.forEach(([k, item], i) => {
      if (indent) out.push(pad);
      out.push(quoteJsonString(k), indent ? ': ' : ':');
      writeValue(item, indent, level + 1, out);
      if (i !== entries.length - 1) out.push(',');
      if (indent) out.push('\n');
    });
    if (indent) out.push(' '.repeat(indent * (level - 1)));
    out.push('}');
  }
}

/**
 * Re-indents compact JSON text (e.g. an RPC result) into `write(indent)` form without
 * re-parsing values: strings and number tokens are copied byte for byte, so the result is
 * exactly what UniValue would print for the same value. Whitespace outside strings is
 * dropped. Throws JsonParseError on unbalanced brackets or an unterminated string.
 */
export function prettyPrint(compactJson: string, indent = 2): string {
  const text = compactJson;
  const n = text.length;
  const closers: number[] = []; // expected closing char code per open container
  let out = '';
  let runStart = 0; // start of a run of scalar characters copied verbatim
  const flush = (i: number): void => {
    if (i > runStart) out += text.slice(runStart, i);
  };
  const pad = (level: number): string => ' '.repeat(indent * level);

  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    switch (c) {
      case 0x22 /* " */: {
        let j = i + 1;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === 0x5c /* \ */) j += 2;
          else if (d === 0x22) break;
          else j++;
        }
        if (j >= n) throw new JsonParseError('unterminated string', i);
        i = j; // the string stays inside the current verbatim run
        break;
      }
      case 0x7b /* { */:
      case 0x5b /* [ */: {
        flush(i);
        closers.push(c + 2); // '{'+2 = '}', '['+2 = ']'
        out += indent ? String.fromCharCode(c) + '\n' : String.fromCharCode(c);
        const next = nextSignificant(text, i + 1);
        if (next < n && text.charCodeAt(next) !== c + 2 && indent) out += pad(closers.length);
        runStart = i + 1;
        break;
      }
      case 0x7d /* } */:
      case 0x5d /* ] */: {
        flush(i);
        if (closers.pop() !== c) throw new JsonParseError('unbalanced brackets', i);
        const prev = prevSignificant(text, i - 1);
        const wasEmpty = prev >= 0 && text.charCodeAt(prev) === c - 2;
        if (indent) out += (wasEmpty ? '' : '\n') + pad(closers.length);
        out += String.fromCharCode(c);
        runStart = i + 1;
        break;
      }
      case 0x2c /* , */:
        flush(i);
        out += indent ? ',\n' + pad(closers.length) : ',';
        runStart = i + 1;
        break;
      case 0x3a /* : */:
        flush(i);
        out += indent ? ': ' : ':';
        runStart = i + 1;
        break;
      case 0x20:
      case 0x09:
      case 0x0a:
      case 0x0d:
        flush(i);
        runStart = i + 1;
        break;
      default:
        break;
    }
  }
  flush(n);
  if (closers.length !== 0) throw new JsonParseError('unclosed container', n);
  return out;
}

function nextSignificant(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

function prevSignificant(text: string, i: number): number {
  while (i >= 0 && isSpace(text.charCodeAt(i))) i--;
  return i;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
