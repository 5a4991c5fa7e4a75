/**
 * zcashd's -gen and -genproclimit as setgenerate changes them (mapArgs): a node without a miner
 * address records the setting and starts no miner (zcashd's mining threads stop at once for want
 * of an address), so getgenerate and getmininginfo report what was set while nothing is mined.
 */

/** DEFAULT_GENERATE_THREADS (src/miner.h). */
export const DEFAULT_GENERATE_THREADS = 1;

export class GenerateSetting {
  generate = false;
  procLimit = DEFAULT_GENERATE_THREADS;
}
