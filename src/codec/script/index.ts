/** Scripts and transparent addresses: asm rendering, output classification, t-address codec. */
export { scriptToAsm, writeScriptAsm, type ScriptAsmSink } from './asm.js';
export { solveScript, isPayToScriptHash, isPayToPubkeyHash } from './solver.js';
export type { TxOutType, SolvedScript, Destination, DestinationKind } from './solver.js';
export { encodeTransparentAddress, decodeTransparentAddress } from './address.js';
export { opcodeName, readScriptOp, newScriptOp, isSmallInteger, decodeSmallInteger, MAX_SCRIPT_SIZE } from './opcodes.js';
export type { ScriptOp } from './opcodes.js';
