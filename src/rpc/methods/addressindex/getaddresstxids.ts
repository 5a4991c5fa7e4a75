/** `getaddresstxids` (zcashd v6.12.2 src/rpc/misc.cpp, insight explorer). */
import { toHexReversed } from '../../../codec/hex.js';
import type { DeltaTransaction } from '../../../store/indexes/address-index-reader.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
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
        const addresses = addressesFromParam(params[0]!, ctx.network);
        // zcashd collects std::set<(height, txindex, txid hex)>: block order, a transaction once
        // however many of its inputs and outputs touch the addresses. On the active chain a block
        // position holds one transaction, so (height, txindex) alone orders and deduplicates, and
        // one address's entries already come in that order from the index.
        const entries: DeltaTransaction[] = [];
        const allowance = new EntryAllowance(ctx);
        for (const a of addresses) {
          for (const t of await allowance.read((limit) => c.index.deltaTransactions(a.type, a.hash, start, end, limit))) entries.push(t);
        }
        if (addresses.length > 1) entries.sort((x, y) => x.height - y.height || x.txIndex - y.txIndex);
        const txids: string[] = [];
        let last: { height: number; txIndex: number } | null = null;
        for (const d of entries) {
          if (last && d.height === last.height && d.txIndex === last.txIndex) continue;
          last = d;
          txids.push(`"${toHexReversed(d.txid)}"`);
        }
        return '[' + txids.join(',') + ']';
      },
    },
    features,
  );
}
