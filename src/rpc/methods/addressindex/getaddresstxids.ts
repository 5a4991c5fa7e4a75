/** `getaddresstxids` (zcashd v6.12.2 src/rpc/misc.cpp, insight explorer). */
import { JsonWriter } from '../../../json/writer.js';
import type { DeltaTransaction } from '../../../store/indexes/address-index-reader.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { replyOf, type RpcMethod } from '../../method.js';
import type { ExperimentalFeatures } from '../control/experimental-features.js';
import { tipHeight } from '../blockchain/context.js';
import { EntryAllowance, EXAMPLE_ADDRESS, insightMethod, type InsightContext } from './insight-method.js';
import { addressesFromParam, heightRange } from './params.js';

const HEAD =
  'getaddresstxids {"addresses": ["taddr", ...], ("start": n), ("end": n)}\n' +
  '\nReturns the txids for given transparent addresses within the given (inclusive)\n' +
  '\nblock height range, default is the full blockchain.' +
  '\nIf start or end are not specified, they default to zero.' +
  "\nIf start is greater than the latest block height, it's interpreted as that height.\n" +
  "\nIf end is zero, it's interpreted as the latest block height.\n" +
  '\nThe returned txids are in the order they appear in blocks, which' +
  '\nensures that they are topologically sorted (i.e. parent txids' +
  '\nappear before child txids).\n';

const TAIL =
  '\nArguments:\n' +
  '{\n' +
  '  "addresses":\n' +
  '    [\n' +
  '      "taddr"  (string) The base58check encoded address\n' +
  '      ,...\n' +
  '    ]\n' +
  '  "start" (number, optional) The start block height\n' +
  '  "end" (number, optional) The end block height\n' +
  '}\n' +
  '(or)\n' +
  '"address"  (string) The base58check encoded address\n' +
  '\nResult:\n' +
  '[\n' +
  '  "transactionid"  (string) The transaction id\n' +
  '  ,...\n' +
  ']\n' +
  '\nExamples:\n' +
  exampleCli('getaddresstxids', `'{"addresses": ["${EXAMPLE_ADDRESS}"], "start": 1000, "end": 2000}'`) +
  exampleRpc('getaddresstxids', `{"addresses": ["${EXAMPLE_ADDRESS}"], "start": 1000, "end": 2000}`);

/** A txid's text in the reply: quoted hex and a comma. */
const TXID_TEXT_BYTES = 67;

/** A transaction kept until every address is read: its block position, its txid at `slab[at]`. */
interface HeldTransaction {
  height: number;
  txIndex: number;
  slab: Buffer;
  at: number;
}

export function getAddressTxidsMethod(c: InsightContext, features: ExperimentalFeatures): RpcMethod {
  return insightMethod(
    {
      name: 'getaddresstxids',
      category: 'addressindex',
      required: 1,
      optional: 0,
      gate: 'insight-or-lightwalletd',
      helpHead: HEAD,
      helpTail: TAIL,
      async call(params, ctx) {
        const { start, end } = heightRange(params[0]!, await tipHeight(c.store));
        const addresses = addressesFromParam(params[0]!, ctx);
        // zcashd collects std::set<(height, txindex, txid hex)>: block order, a transaction once
        // however many of its inputs and outputs touch the addresses. On the active chain a block
        // position holds one transaction, so (height, txindex) alone orders and deduplicates, and
        // one address's entries already come in that order from the index: each transaction is
        // kept once per address as its entries are read (its txid copied out of the batch).
        const held: HeldTransaction[] = [];
        const allowance = new EntryAllowance(ctx, 'getaddresstxids', addresses.length);
        const reads = c.index.ranges(addresses.length);
        try {
          for (const a of addresses) {
            let last: DeltaTransaction | null = null;
            for await (const batch of allowance.batches((limit) => reads.deltaTransactionBatches(a.type, a.hash, start, end, limit))) {
              const firsts = batch.filter((d) => {
                const first = !last || d.height !== last.height || d.txIndex !== last.txIndex;
                last = d;
                return first;
              });
              const slab = Buffer.allocUnsafe(32 * firsts.length);
              firsts.forEach((d, i) => {
                slab.set(d.txid, 32 * i);
                held.push({ height: d.height, txIndex: d.txIndex, slab, at: 32 * i });
              });
            }
          }
        } finally {
          await reads.close();
        }
        if (addresses.length > 1) held.sort((x, y) => x.height - y.height || x.txIndex - y.txIndex);
        // A transaction two addresses share is kept once per address: written once, after its first.
        const repeats = (t: HeldTransaction, i: number) => i > 0 && t.height === held[i - 1]!.height && t.txIndex === held[i - 1]!.txIndex;
        let distinct = 0;
        for (let i = 0; i < held.length; i++) if (!repeats(held[i]!, i)) distinct++;
        // Room for exactly the reply, so it is written once.
        const w = new JsonWriter(TXID_TEXT_BYTES * distinct + 2).beginArray();
        for (let i = 0; i < held.length; i++) if (!repeats(held[i]!, i)) w.hexStrReversed(held[i]!.slab, held[i]!.at, 32);
        return replyOf(w.endArray());
      },
    },
    features,
  );
}
