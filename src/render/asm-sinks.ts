/**
 * Where TxToJSON's script asm goes: into the writer's open string (a member written by the
 * member-by-member writer) or into its open pieces (an input written from fragments).
 */
import { writeScriptAsm, type ScriptAsmSink } from '../codec/script/asm.js';
import type { JsonWriter } from '../json/writer.js';

/**
 * Puts a script's asm straight into the writer's open string; its pushes lie in the bytes of
 * the transaction, whose hex the writer has already written, so they are copies of that output.
 */
export class AsmIntoWriter implements ScriptAsmSink {
  constructor(private readonly w: JsonWriter) {}

  text(s: string): void {
    this.w.stringText(s);
  }

  hex(script: Uint8Array, from: number, to: number): void {
    this.w.stringHex(script, from, to);
  }

  /** The `asm` member's value, of `script[start, end)`. */
  write(script: Uint8Array, attemptSighashDecode: boolean, start = 0, end = script.length): void {
    this.w.openString();
    writeScriptAsm(script, attemptSighashDecode, this, start, end);
    this.w.closeString();
  }
}

/** Puts a script's asm into the writer's open pieces: an input written from fragments. */
export class AsmIntoPieces implements ScriptAsmSink {
  constructor(private readonly w: JsonWriter) {}

  text(s: string): void {
    this.w.pieceText(s);
  }

  hex(script: Uint8Array, from: number, to: number): void {
    this.w.pieceHex(script, from, to);
  }
}
