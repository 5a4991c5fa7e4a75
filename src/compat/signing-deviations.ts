/**
 * The compatibility registry's entries on signrawtransaction, in the registry's order:
 * deviations.ts places them.
 */
import { EVERY_PROFILE, type RegistryEntry } from './registry-entry.js';

export const SIGNING_DEVIATIONS: readonly RegistryEntry[] = [
  {
    name: 'signrawtransaction-coins',
    kind: 'deviation',
    subjects: ['signrawtransaction'],
    member: null,
    text: [
      "`signrawtransaction` spends the coins of the chain's coins view and of `prevtxs`, never the",
      "mempool's (zcashd's view includes its mempool): with `-upstream` too, a coin only a mempool",
      'holds must be given in `prevtxs`. A hex whose later transactions have fewer inputs than the',
      'first merges nothing from them for the inputs they lack, where zcashd stops on an assertion.',
      'Under the current profile a v6 transaction is refused (-8 "Cannot sign v6 transactions:',
      'zecrpc has no ZIP 229 signature digest").',
    ],
    why: 'zecrpc keeps no mempool and sends no private key to another node; a node must not stop on a request.',
    since: '0.1.0',
    profiles: EVERY_PROFILE,
  },
];
