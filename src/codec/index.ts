/**
 * `zecrpc/codec`: the decoder alone. Transactions (v1–v5) and blocks from bytes or hex, every
 * field as a zero-copy view, txids and ZIP-244 digests, merkle and auth-data roots, exact
 * re-serialization, scripts and transparent addresses. Loads no JSON-RPC, store or CLI code.
 */
export { DecodeError, type DecodeReason } from './errors.js';
export { ByteReader, ByteWriter, MAX_SIZE } from './bytes.js';
export { isHex, hexToBytes, toHex, toHexReversed, reversedHexToBytes } from './hex.js';
export { Transaction, decodeTransaction, decodeTransactionHex, encodeTransaction, readTransaction } from './tx/transaction.js';
export type * from './tx/types.js';
export { COIN, MAX_MONEY } from './tx/types.js';
export {
  Block,
  type BlockHeader,
  decodeBlock,
  decodeBlockHex,
  decodeBlockHeader,
  encodeBlock,
  encodeBlockHeader,
  blockHeaderHash,
  merkleRoot,
  authDataRoot,
} from './block.js';
export { scriptToAsm, solveScript, encodeTransparentAddress, decodeTransparentAddress } from './script/index.js';
export type { TxOutType, SolvedScript } from './script/index.js';
