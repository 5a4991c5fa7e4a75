/**
 * Consensus branch ids of the network upgrades after zcashd v6.12.2 (ZIP 257: NU6.2; ZIP 258:
 * NU6.3 "Ironwood"). A leaf apart from `upgrades.ts`, whose table stays zcashd v6.12.2's until
 * the chain's upgrade list takes these epochs; the codec's current-chain acceptance reads them
 * from here.
 */

/** NU6.2 (ZIP 257): the Orchard mitigation's network upgrade. */
export const NU6_2_BRANCH_ID = 0x5437f330;

/** NU6.3 "Ironwood" (ZIP 258): v6 transactions and the Ironwood pool. */
export const NU6_3_BRANCH_ID = 0x37a5165b;
