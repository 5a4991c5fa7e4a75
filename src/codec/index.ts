/**
 * `zecrpc/codec`: the decoder alone. Transactions (v1–v6) and blocks from bytes or hex, every
 * field as a zero-copy view, txids and ZIP-244/ZIP-229 digests, merkle and auth-data roots, exact
 * re-serialization, scripts and transparent addresses. Loads no JSON-RPC, store or CLI code.
 * Decoding accepts what zcashd v6.12.2 accepts unless given another `TxAcceptance`
 * (`CURRENT_CHAIN_ACCEPTANCE` adds NU6.2, NU6.3 and v6 transactions).
 */
export { DecodeError, type DecodeReason } from './errors.js';
export { ByteReader, ByteWriter, MAX_SIZE } from './bytes.js';
export { isHex, hexToBytes, toHex, toHexReversed, reversedHexToBytes } from './hex.js';
export { Transaction, decodeTransaction, decodeTransactionHex, encodeTransaction, readTransaction } from './tx/transaction.js';
export type * from './tx/types.js';
export { COIN, MAX_MONEY } from './tx/types.js';
export {
  TxAcceptance,
  type TxAcceptanceSpec,
  type TxFormatKey,
  ZCASHD_6_12_2_ACCEPTANCE,
  CURRENT_CHAIN_ACCEPTANCE,
  V6_FORMAT_KEY,
} from './tx/acceptance.js';
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
