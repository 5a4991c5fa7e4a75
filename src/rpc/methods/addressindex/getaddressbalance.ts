/** `getaddressbalance` (zcashd v6.12.2 src/rpc/misc.cpp, insight explorer). */
import { toHex } from '../../../codec/hex.js';
import type { AddressRanges } from '../../../store/indexes/address-index-reader.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import type { ExperimentalFeatures } from '../control/experimental-features.js';
import { ADDRESS_LIST_HELP, EXAMPLE_ADDRESS, SINGLE_ADDRESS_HELP, insightMethod, type InsightContext } from './insight-method.js';
import { addressesFromParam } from './params.js';

const HEAD = 'getaddressbalance {"addresses": ["taddr", ...]}\n' + '\nReturns the balance for addresses.\n';

const TAIL =
  '\nArguments:\n' +
  '{\n' +
  ADDRESS_LIST_HELP +
  '}\n' +
  '(or)\n' +
  SINGLE_ADDRESS_HELP +
  '\nResult:\n' +
  '{\n' +
  '  "balance"  (string) The current balance in zatoshis\n' +
  '  "received"  (string) The total number of zatoshis received (including change)\n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getaddressbalance', `'{"addresses": ["${EXAMPLE_ADDRESS}"]}'`) +
  exampleRpc('getaddressbalance', `{"addresses": ["${EXAMPLE_ADDRESS}"]}`);

/** Sums within ±2^52 stay exact with a delta (|value| ≤ MAX_MONEY < 2^51) added. */
const EXACT_SUM = 2 ** 52;

/**
 * An address's balance (every delta) and received (every positive delta), exact as zcashd's
 * int64 sums: added as numbers, and moved into BigInts whenever one nears the end of the
 * range where numbers are exact.
 */
async function addressSums(index: AddressRanges, type: number, hash: Uint8Array): Promise<{ balance: bigint; received: bigint }> {
  let balance = 0n;
  let received = 0n;
  let b = 0;
  let r = 0;
  for await (const batch of index.deltaBatches(type, hash, 0, 0)) {
    for (const d of batch) {
      b += d.value;
      if (d.value > 0) r += d.value;
      if (b >= EXACT_SUM || b <= -EXACT_SUM) {
        balance += BigInt(b);
        b = 0;
      }
      if (r >= EXACT_SUM) {
        received += BigInt(r);
        r = 0;
      }
    }
  }
  return { balance: balance + BigInt(b), received: received + BigInt(r) };
}

export function getAddressBalanceMethod(c: InsightContext, features: ExperimentalFeatures): RpcMethod {
  return insightMethod(
    {
      name: 'getaddressbalance',
      category: 'addressindex',
      required: 1,
      optional: 0,
      gate: 'insight-or-lightwalletd',
      helpHead: HEAD,
      helpTail: TAIL,
      async call(params, ctx) {
        // zcashd reads every delta of the whole chain (start = end = 0) once for each time an
        // address is listed. Each distinct address is read once here, a batch at a time, and its
        // sums counted as often as it is listed: neither a long history nor a long list of
        // repeats costs memory, nor more than one read of each history.
        const listed = new Map<string, { type: number; hash: Uint8Array; times: bigint }>();
        for (const a of addressesFromParam(params[0]!, ctx)) {
          const key = `${a.type}:${toHex(a.hash)}`;
          const seen = listed.get(key);
          if (seen) seen.times++;
          else listed.set(key, { type: a.type, hash: a.hash, times: 1n });
        }
        let balance = 0n;
        let received = 0n;
        const reads = c.index.ranges(listed.size);
        try {
          for (const { type, hash, times } of listed.values()) {
            const sums = await addressSums(reads, type, hash);
            balance += sums.balance * times;
            received += sums.received * times;
          }
        } finally {
          await reads.close();
        }
        return `{"balance":${balance},"received":${received}}`;
      },
    },
    features,
  );
}
