/**
 * `sendrawtransaction "hexstring" ( allowhighfees )` (zcashd v6.12.2 src/rpc/rawtransaction.cpp).
 *
 * With -upstream the transaction goes to the upstream node, whose answer (txid or rejection) is
 * relayed verbatim: that node validates it against its UTXO set and relays it to the network.
 *
 * Without an upstream, zecrpc runs zcashd's checks in zcashd's order as far as they need no
 * mempool, proofs, signatures or scripts, with zcashd's errors: parameter types, the decode,
 * the expiring-soon rule, already in the best chain, then AcceptToMemoryPool's
 * CheckTransaction (stopping before a JoinSplit's proof), ContextualCheckTransaction at the next
 * height, no loose coinbase, IsStandardTx (mainnet and testnet) and finality at the tip's median
 * time past, then its coins view (-25 "Missing inputs"; spent inputs, revealed nullifiers, unknown
 * anchors); each refusal is -26 "<reject code>: <reason>". Then it answers -9 "Zcash is not
 * connected!" (zcashd's text for a node without peers). A zcashd with no peers would go on to
 * fees, scripts and proofs, put the transaction in its mempool and return the txid, but zecrpc
 * cannot validate the spend and has nowhere to send it, so a txid would claim a submission that
 * never happens.
 */
import { isUpgradeActive, type NetworkParams } from '../../../chain/network.js';
import { DEFAULT_RELAY_POLICY, nonStandardReason, type RelayPolicy } from '../../../chain/tx-policy.js';
import {
  checkTransactionWithoutProofs,
  contextualCheckTransaction,
  isFinalTx,
  REJECT_DUPLICATE,
  REJECT_INVALID,
  REJECT_NONSTANDARD,
  type TxRuleViolation,
} from '../../../chain/tx-rules.js';
import type { Transaction } from '../../../codec/tx/transaction.js';
import { DecodeError } from '../../../codec/errors.js';
import { decodeTransactionHex } from '../../../codec/tx/transaction.js';
import { acceptanceForNetwork } from '../../../codec/tx/acceptance.js';
import { getBool } from '../../../json/getters.js';
import { jsonTypeName } from '../../../json/value.js';
import { checkShieldedRequirements } from '../../../state/shielded-requirements.js';
import type { ChainStoreReader, CoinsView } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { tipHeight } from '../blockchain/context.js';
import { medianTimePastOf } from '../blockchain/network-difficulty.js';
import type { UpstreamRelay } from './upstream-relay.js';

/** TX_EXPIRING_SOON_THRESHOLD (src/consensus/consensus.h). */
const TX_EXPIRING_SOON_THRESHOLD = 3;
const RPC_TRANSACTION_REJECTED = -26;
const RPC_TRANSACTION_ALREADY_IN_CHAIN = -27;
/** RPC_TRANSACTION_ERROR: AcceptToMemoryPool failed without a rejection (missing inputs). */
const RPC_TRANSACTION_ERROR = -25;
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

export function sendRawTransactionMethod(
  store: ChainStoreReader,
  upstream: UpstreamRelay | null,
  policy: RelayPolicy = DEFAULT_RELAY_POLICY,
): RpcMethod {
  return {
    name: 'sendrawtransaction',
    surface: 'upstream',
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
        tx = decodeTransactionHex(params[0], acceptanceForNetwork(ctx.network));
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
      const rejected = await mempoolRejection(store, ctx.network, tx, policy);
      if (rejected) throw new RpcError(RPC_TRANSACTION_REJECTED, `${rejected.code}: ${rejected.reason}`);
      throw new RpcError(-9, NOT_CONNECTED_MESSAGE);
    },
  };
}

/**
 * AcceptToMemoryPool's checks before it reads the coins view, in its order, at the height of the
 * next block; null when they pass or when the next one needs what zecrpc does not verify (the
 * proofs of a transaction's JoinSplits).
 */
async function mempoolRejection(
  store: ChainStoreReader,
  network: NetworkParams,
  tx: Transaction,
  policy: RelayPolicy,
): Promise<TxRuleViolation | null> {
  const tip = await store.tip();
  const next = (tip?.height ?? -1) + 1;
  const structural = checkTransactionWithoutProofs(tx);
  if (structural) return structural;
  // CheckTransaction verifies JoinSplit proofs next, which zecrpc cannot.
  if (tx.data.joinSplits.length > 0) return null;
  const contextual = contextualCheckTransaction(tx, network, next);
  if (contextual) return contextual;
  if (tx.isCoinbase) return { code: REJECT_INVALID, reason: 'coinbase', detail: 'a coinbase outside a block' };
  // fRequireStandard: mainnet and testnet.
  const nonStandard = network.name === 'regtest' ? null : nonStandardReason(tx, network, next, policy);
  if (nonStandard) return { code: REJECT_NONSTANDARD, reason: nonStandard, detail: nonStandard };
  // CheckFinalTx with LOCKTIME_MEDIAN_TIME_PAST: lock times against the tip's median time past.
  const tipEntry = tip ? await store.blockIndex(tip.hash) : null;
  const cutoff = tipEntry ? await medianTimePastOf(store, tipEntry) : 0;
  if (!isFinalTx(tx, next, cutoff)) return { code: REJECT_NONSTANDARD, reason: 'non-final', detail: 'non-final' };
  // A store started from a checkpoint lacks the coins, nullifiers and roots before it: a miss
  // there proves nothing, so its coins view is not asked.
  const view = store.coinsView?.();
  return view && (await store.chainStateTip())?.coinsComplete === true ? coinsViewRejection(view, tx) : null;
}

/**
 * AcceptToMemoryPool's reads of the coins view, in its order: every input's transaction with an
 * unspent output (else -25 "Missing inputs"), every input unspent, then the shielded
 * requirements (nullifiers not revealed, anchors known). The checks after them (fees, ZIP 317,
 * scripts, proofs) zecrpc does not make.
 */
async function coinsViewRejection(view: CoinsView, tx: Transaction): Promise<TxRuleViolation | null> {
  const d = tx.data;
  for (const input of d.vin) {
    if (!(await view.hasUnspentOutputs(input.prevout.hash))) throw new RpcError(RPC_TRANSACTION_ERROR, 'Missing inputs');
  }
  const reject = (code: number, reason: string): TxRuleViolation => ({ code, reason, detail: reason });
  for (const input of d.vin) {
    if (!view.isUnspent(input.prevout.hash, input.prevout.index)) return reject(REJECT_DUPLICATE, 'bad-txns-inputs-spent');
  }
  let failure: TxRuleViolation | null = null;
  checkShieldedRequirements(d, view, (f) => {
    failure = reject(f.kind === 'duplicate-nullifier' ? REJECT_DUPLICATE : REJECT_INVALID, f.rule);
    return false;
  });
  return failure;
}
