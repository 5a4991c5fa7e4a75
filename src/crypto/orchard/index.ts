export { defaultOrchardHasher, FastOrchardHasher, ORCHARD_HASHER, type OrchardHasherChoice } from './hasher.js';
export { orchardMerkleHash, merkleCrhAtHeight, ORCHARD_MERKLE_DEPTH, ORCHARD_UNCOMMITTED } from './merkle-crh.js';
export { sinsemillaHash, sinsemillaHashToPoint } from './sinsemilla.js';
export { groupHashP } from './group-hash.js';
