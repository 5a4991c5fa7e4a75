/**
 * `getspentinfo {"txid": …, "index": n}` (zcashd v6.12.2 src/rpc/misc.cpp): the input that spent
 * an output. Needs -insightexplorer (zcashd keeps its spent index only then; -lightwalletd alone
 * does not enable this method). zecrpc has no mempool, so only best-chain spends are found.
 */
import { toHexReversed } from '../../../codec/hex.js';
import { getInt } from '../../../json/getters.js';
import { JsonObject } from '../../../json/value.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { isJsonNumber, parseHashV } from '../../params.js';
import type { ExperimentalFeatures } from '../control/experimental-features.js';
import { insightMethod, type InsightContext } from './insight-method.js';

const HEAD = 'getspentinfo {"txid": "txidhex", "index": n}\n' + '\nReturns the txid and index where an output is spent.\n';

const EXAMPLE_TXID = '33990288fb116981260be1de10b8c764f997674545ab14f9240f00346333b780';

const TAIL =
  '\nArguments:\n' +
  '{\n' +
  '  "txid"   (string) The hex string of the txid\n' +
  '  "index"  (number) The vout (output) index\n' +
  '}\n' +
  '\nResult:\n' +
  '{\n' +
  '  "txid"   (string) The transaction id\n' +
  '  "index"  (number) The spending (vin, input) index\n' +
  '  ,...\n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getspentinfo', `'{"txid": "${EXAMPLE_TXID}", "index": 4}'`) +
  exampleRpc('getspentinfo', `{"txid": "${EXAMPLE_TXID}", "index": 4}`);

export function getSpentInfoMethod(c: InsightContext, features: ExperimentalFeatures): RpcMethod {
  return insightMethod(
    {
      name: 'getspentinfo',
      category: 'blockchain',
      required: 1,
      optional: 0,
      gate: 'insight',
      helpHead: HEAD,
      helpTail: TAIL,
      usageOk: (params) => params.length === 1 && params[0] instanceof JsonObject,
      call(params) {
        const obj = params[0] as JsonObject;
        const txidValue = obj.get('txid');
        const indexValue = obj.get('index');
        if (typeof txidValue !== 'string') throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Invalid txid, must be a string');
        if (!isJsonNumber(indexValue)) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Invalid index, must be an integer');
        const txid = parseHashV(txidValue, 'txid');
        // CSpentIndexKey takes the int as an unsigned int: -1 is output 4294967295.
        const outputIndex = getInt(indexValue) >>> 0;
        const info = c.index.spent(txid, outputIndex);
        const spender = info && c.index.spendingTxid(info);
        if (!info || !spender) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Unable to get spent info');
        return `{"txid":"${toHexReversed(spender)}","index":${info.inputIndex},"height":${info.height}}`;
      },
    },
    features,
  );
}
