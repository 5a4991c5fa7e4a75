/** The note-commitment trees' hash contract, which crypto/'s hashers implement (crypto/merkle-hasher.ts). */
export type { MerkleHasher } from '../../crypto/merkle-hasher.js';
