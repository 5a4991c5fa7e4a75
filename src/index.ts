/**
 * zecrpc as a library: decode Zcash transactions and blocks (v1–v5) from bytes or hex, read any
 * field, compute ids and digests, re-serialize, and render zcashd v6.12.2's exact JSON.
 * `zecrpc/codec` is the decoder alone; `zecrpc/server` starts the JSON-RPC node in-process.
 */
export * from './codec/index.js';
export { BRANCH_IDS, KNOWN_BRANCH_IDS, NETWORK_UPGRADES, type NetworkUpgrade } from './chain/upgrades.js';
export { COMPAT_PROFILES, DEFAULT_COMPAT_PROFILE, compatProfileNamed, type CompatProfile } from './compat/profiles.js';
export { MAINNET, TESTNET, REGTEST, networkParams, type NetworkName, type NetworkParams } from './chain/network.js';
export { genesisBlock } from './chain/genesis.js';
export { txToJson, writeTxJson, type TxJsonExtras } from './render/tx.js';
export {
  packSpentRecords,
  type SpenderRecord,
  type SpentOutputRecord,
  type TxSpentFields,
  type TxSpentRecords,
} from './render/spent-fields.js';
export { blockToJson, blockHeaderToJson, decodedBlockToJson, type BlockChainContext } from './render/block.js';
export { SaplingTree, OrchardTree, saplingMerkleHash, orchardMerkleHash } from './state/trees/pool-trees.js';
