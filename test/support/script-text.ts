// zcashd's test-only ParseScript (src/core_read.cpp), for the scripts of its tx_valid.json and
// tx_invalid.json: decimal numbers (OP_N for -1 and 1–16, else a minimal push of the number),
// raw `0x` bytes inserted as they are, 'text' pushed, and opcode names with or without OP_.
import { opcodeName } from '../../src/codec/script/opcodes.js';
import { scriptNumBytes } from '../../src/codec/script/script-num.js';
import { pushAll } from '../../src/codec/tx/transparent-signing.js';

const OPCODES = new Map<string, number>();
for (let op = 0x61; op <= 0xb9; op++) {
  const name = opcodeName(op);
  OPCODES.set(name, op);
  OPCODES.set(name.slice(3), op);
}
OPCODES.set('CHECKLOCKTIMEVERIFY', 0xb1).set('OP_CHECKLOCKTIMEVERIFY', 0xb1).set('RESERVED', 0x50).set('OP_RESERVED', 0x50);

export function parseScriptText(text: string): Uint8Array {
  const out: number[] = [];
  for (const word of text.split(/\s+/)) {
    if (word === '') continue;
    if (/^-?\d+$/.test(word)) {
      const n = Number(word);
      if (n === -1 || (n >= 1 && n <= 16)) out.push(n === -1 ? 0x4f : 0x50 + n);
      else if (n === 0) out.push(0);
      else out.push(...pushAll([scriptNumBytes(n)]));
    } else if (/^0x[0-9a-fA-F]+$/.test(word)) {
      out.push(...Buffer.from(word.slice(2), 'hex'));
    } else if (word.length >= 2 && word.startsWith("'") && word.endsWith("'")) {
      out.push(...pushAll([new Uint8Array(Buffer.from(word.slice(1, -1), 'latin1'))]));
    } else {
      const op = OPCODES.get(word);
      if (op === undefined) throw new Error(`script parse error: ${word}`);
      out.push(op);
    }
  }
  return Uint8Array.from(out);
}
