/**
 * `sendrawtransaction "hexstring" ( allowhighfees )` (zcashd v6.12.2 src/rpc/rawtransaction.cpp).
 *
 * With -upstream the transaction goes to the upstream node, whose answer (txid or rejection) is
 * relayed verbatim: that node validates it against its UTXO set and relays it to the network.
 *
 * Without an upstream, zecrpc runs zcashd's checks that need no mempool (parameter types, the
 * decode, the expiring-soon rule, already in the best chain) with zcashd's errors, and then
 * answers -9 "Zcash is not connected!" (zcashd's text for a node without peers). A zcashd with no
 * peers would put the transaction in its mempool and return the txid, but zecrpc cannot validate
 * the spend and has nowhere to send it, so a txid would claim a submission that never happens.
 */
import { isUpgradeActive } from '../../../chain/network.js';
import { DecodeError } from '../../../codec/errors.js';
import { decodeTransactionHex } from '../../../codec/tx/transaction.js';
import { getBool } from '../../../json/getters.js';
import { jsonTypeName } from '../../../json/value.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { tipHeight } from '../blockchain/context.js';
import type { UpstreamRelay } from './upstream-relay.js';

/** TX_EXPIRING_SOON_THRESHOLD (src/consensus/consensus.h). */
const TX_EXPIRING_SOON_THRESHOLD = 3;
const RPC_TRANSACTION_REJECTED = -26;
const RPC_TRANSACTION_ALREADY_IN_CHAIN = -27;
export const NOT_CONNECTED_MESSAGE = 'Zcash is not connected!';

export const SENDRAWTRANSACTION_HELP: string =
  'sendrawtransaction "hexstring" ( allowhighfees )\n' +
  '\nSubmits raw transaction (serialized, hex-encoded) to local node and network.\n' +
  '\nAlso see createrawtransaction and signrawtransaction calls.\n' +
  '\nArguments:\n' +
  '1. "hexstring"    (string, required) The hex string of the raw transaction)\n' +
  '2. allowhighfees    (boolean, optional, default=false) Allow high fees\n' +
  '\nResult:\n' +
  '"hex"             (string) The transaction hash in hex\n' +
  '\nExamples:\n' +
  '\nCreate a transaction\n' +
  exampleCli('createrawtransaction', '"[{\\"txid\\" : \\"mytxid\\",\\"vout\\":0}]" "{\\"myaddress\\":0.01}"') +
  'Sign the transaction, and get back the hex\n' +
  exampleCli('signrawtransaction', '"myhex"') +
  '\nSend the transaction (signed hex)\n' +
  exampleCli('sendrawtransaction', '"signedhex"') +
  '\nAs a json rpc call\n' +
  exampleRpc('sendrawtransaction', '"signedhex"');

export function sendRawTransactionMethod(store: ChainStoreReader, upstream: UpstreamRelay | null): RpcMethod {
  return {
    name: 'sendrawtransaction',
    category: 'rawtransactions',
    required: 1,
    optional: 1,
    help: SENDRAWTRANSACTION_HELP,
    async call(params, ctx) {
      if (upstream) return upstream.call('sendrawtransaction', params, ctx);
      // RPCTypeCheck(params, {VSTR, VBOOL}) with fAllowNull false: a JSON null is a wrong type too.
      const expected = ['string', 'bool'];
      params.forEach((p, i) => {
        if (i < expected.length && jsonTypeName(p) !== expected[i]) {
          throw new RpcError(RPC.TYPE_ERROR, `Expected type ${expected[i]}, got ${jsonTypeName(p)}`);
        }
      });
      if (typeof params[0] !== 'string') throw new Error('JSON value is not a string as expected');
      let tx;
      try {
        tx = decodeTransactionHex(params[0]);
      } catch (e) {
        if (e instanceof DecodeError) throw new RpcError(RPC.DESERIALIZATION_ERROR, e.rpcMessage);
        throw e;
      }
      const expiry = tx.data.expiryHeight;
      if (expiry > 0) {
        const next = (await tipHeight(store)) + 1;
        if (isUpgradeActive(ctx.network, 'Overwinter', next) && next + TX_EXPIRING_SOON_THRESHOLD > expiry) {
          throw new RpcError(
            RPC_TRANSACTION_REJECTED,
            `tx-expiring-soon: expiryheight is ${expiry} but should be at least ${next + TX_EXPIRING_SOON_THRESHOLD} to avoid transaction expiring soon`,
          );
        }
      }
      if (params.length > 1) getBool(params[1]!);
      if (await store.txLocation(tx.txid)) throw new RpcError(RPC_TRANSACTION_ALREADY_IN_CHAIN, 'transaction already in block chain');
      throw new RpcError(-9, NOT_CONNECTED_MESSAGE);
    },
  };
}
