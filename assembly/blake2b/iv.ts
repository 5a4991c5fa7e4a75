// BLAKE2b's initialization vector (RFC 7693 §2.6), shared by the one-message and two-lane
// compressions.
export const IV0: u64 = 0x6a09e667f3bcc908;
export const IV1: u64 = 0xbb67ae8584caa73b;
export const IV2: u64 = 0x3c6ef372fe94f82b;
export const IV3: u64 = 0xa54ff53a5f1d36f1;
export const IV4: u64 = 0x510e527fade682d1;
export const IV5: u64 = 0x9b05688c2b3e6c1f;
export const IV6: u64 = 0x1f83d9abfb41bd6b;
export const IV7: u64 = 0x5be0cd19137e2179;
