/**
 * `signrawtransaction "hexstring" ( prevtxs privatekeys sighashtype branchid )` (zcashd v6.12.2
 * src/rpc/rawtransaction.cpp, script/sign.cpp), as a node without a wallet: signs what the
 * given keys can sign, merges the signatures of every transaction in the hex (each a variant of
 * the first), and verifies each input under the standard script flags, reporting the inputs
 * that fail with zcashd's script error texts.
 *
 * The coins come from the chain's coins view (the outputs of the transactions the inputs spend
 * from) and from `prevtxs`; zecrpc holds no mempool, so a coin only the mempool has must be
 * given in `prevtxs`, as zcashd's with an empty mempool. Without keys nothing is signed (zcashd
 * would use its wallet's). The method is deprecated but allowed by default in zcashd, and its
 * help says so.
 */
import { branchIdAt, type NetworkParams } from '../../../chain/network.js';
import { ByteReader } from '../../../codec/bytes.js';
import { DecodeError } from '../../../codec/errors.js';
import { toHex } from '../../../codec/hex.js';
import { ScriptError, scriptErrorString } from '../../../codec/script/script-error.js';
import { STANDARD_SCRIPT_VERIFY_FLAGS } from '../../../codec/script/signature-encoding.js';
import { verifyScript } from '../../../codec/script/verify-script.js';
import { combineSignatures } from '../../../codec/tx/combine-signatures.js';
import { SIGHASH_ALL, SIGHASH_ANYONECANPAY, SIGHASH_SINGLE, type SpentOutput } from '../../../codec/tx/sighash.js';
import { TransactionSignatureChecker } from '../../../codec/tx/signature-checker.js';
import { encodeTransaction, readTransaction } from '../../../codec/tx/transaction.js';
import { KeyStore, produceSignature } from '../../../codec/tx/transparent-signing.js';
import type { TransactionData, TxIn } from '../../../codec/tx/types.js';
import { DEFAULT_COMPAT_PROFILE, type CompatProfile } from '../../../compat/profiles.js';
import { getStr } from '../../../json/getters.js';
import { jsonTypeName, type JsonValue } from '../../../json/value.js';
import { JsonWriter } from '../../../json/writer.js';
import type { ChainStoreReader, CoinsView } from '../../../store/types.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { tipHeight } from '../blockchain/context.js';
import { APPROX_RELEASE_HEIGHT } from '../network/getdeprecationinfo.js';
import { SIGNRAWTRANSACTION_HELP } from './signrawtransaction-help.js';
import {
  SigningCoins,
  parseHexV,
  readBranchId,
  readHashType,
  readPreviousOutputs,
  readPrivateKeys,
  type SpendableCoin,
} from './signing-inputs.js';

const ZIP225_TX_VERSION = 5;
/** Inputs signed between two turns of the event loop. */
const YIELD_EVERY = 8;
/** The formats with a transparent signature hash: zcashd v6.12.2's (v6's ZIP 229 digest is not implemented). */
const SIGNABLE_FORMATS: ReadonlySet<TransactionData['format']> = new Set(['v1', 'v2', 'v3', 'v4', 'v5']);

/** `RPCTypeCheck(params, {str, arr, arr, str, str}, fAllowNull=true)`. */
function checkTypes(params: readonly JsonValue[]): void {
  const expected = ['string', 'array', 'array', 'string', 'string'] as const;
  params.forEach((value, i) => {
    const type = jsonTypeName(value);
    if (i < expected.length && type !== expected[i] && type !== 'null') {
      throw new RpcError(RPC.TYPE_ERROR, `Expected type ${expected[i]}, got ${type}`);
    }
  });
}

/** The transactions of the hex, one after another as zcashd's stream reads them; -22 when one does not decode. */
function readVariants(bytes: Uint8Array, profile: CompatProfile): TransactionData[] {
  const r = new ByteReader(bytes);
  const variants: TransactionData[] = [];
  while (r.pos < r.end) {
    try {
      variants.push(readTransaction(r, profile.acceptance).data);
    } catch (e) {
      if (e instanceof DecodeError || e instanceof RangeError) throw new RpcError(RPC.DESERIALIZATION_ERROR, 'TX decode failed');
      throw e;
    }
  }
  if (variants.length === 0) throw new RpcError(RPC.DESERIALIZATION_ERROR, 'Missing transaction');
  return variants;
}

/** `TxInErrorToJSON`: the input, its scriptSig as it now stands, and the error. */
function writeInputError(w: JsonWriter, txin: TxIn, scriptSig: Uint8Array, error: string): void {
  w.beginObject();
  w.key('txid').hexStrReversed(txin.prevout.hash);
  w.key('vout').int(txin.prevout.index);
  w.key('scriptSig').hexStr(scriptSig);
  w.key('sequence').int(txin.sequence);
  w.key('error').str(error);
  w.endObject();
}

/** The branch id of the next block, or of APPROX_RELEASE_HEIGHT's when the chain is behind it (not on regtest). */
async function currentBranchId(store: ChainStoreReader, network: NetworkParams): Promise<number> {
  let height = (await tipHeight(store)) + 1;
  if (network.name !== 'regtest') height = Math.max(height, APPROX_RELEASE_HEIGHT);
  return branchIdAt(network, height);
}

/** Over the store's tip (the branch id) and its coins view (`coins`: null reads none). */
export function signRawTransactionMethod(store: ChainStoreReader, coins: Pick<CoinsView, 'coin'> | null): RpcMethod {
  const chainCoin = (txid: Uint8Array, n: number): SpendableCoin | null => coins?.coin(txid, n) ?? null;
  return {
    name: 'signrawtransaction',
    category: 'rawtransactions',
    required: 1,
    optional: 4,
    help: SIGNRAWTRANSACTION_HELP,
    cost: 'per input, a coins-view read, ECDSA signing and verification (merging multisig variants checks each signature against each key); other requests run between every 8 inputs',
    async call(params, ctx) {
      const profile = ctx.profile ?? DEFAULT_COMPAT_PROFILE;
      checkTypes(params);
      const variants = readVariants(parseHexV(params[0], 'argument 1'), profile);
      const tx = variants[0]!;
      const unsignable = variants.find((v) => !SIGNABLE_FORMATS.has(v.format));
      if (unsignable) {
        throw new RpcError(RPC.INVALID_PARAMETER, `Cannot sign ${unsignable.format} transactions: zecrpc has no ZIP 229 signature digest`);
      }
      const view = new SigningCoins(chainCoin, new Set(tx.vin.map((i) => toHex(i.prevout.hash))));

      const keysParam = params[2];
      const givenKeys = keysParam !== undefined && keysParam !== null;
      const keys = givenKeys ? readPrivateKeys(keysParam as JsonValue[], ctx.network) : new KeyStore();
      const prevTxs = params[1];
      if (prevTxs !== undefined && prevTxs !== null) readPreviousOutputs(prevTxs as JsonValue[], view, givenKeys ? keys : null);

      const hashTypeParam = params[3];
      const hashType = hashTypeParam !== undefined && hashTypeParam !== null ? readHashType(getStr(hashTypeParam)) : SIGHASH_ALL;
      const hashSingle = (hashType & ~SIGHASH_ANYONECANPAY) === SIGHASH_SINGLE;
      let branchId = await currentBranchId(store, ctx.network);
      const branchParam = params[4];
      if (branchParam !== undefined && branchParam !== null) branchId = readBranchId(getStr(branchParam), profile);

      // A v5 signature commits to every input's spent output, so all must be known.
      let spent: SpentOutput[] = [];
      if (tx.version >= ZIP225_TX_VERSION) {
        const outputs = tx.vin.map((i) => view.get(i.prevout.hash, i.prevout.index));
        if (outputs.some((o) => o === null))
          throw new RpcError(RPC.INVALID_PARAMETER, 'Cannot sign v5 transactions without knowing all inputs');
        spent = outputs.map((o) => ({ value: o!.value, scriptPubKey: o!.scriptPubKey }));
      }

      const scriptSigs = tx.vin.map((i) => i.scriptSig);
      const errors = new JsonWriter().beginArray();
      let complete = true;
      for (let index = 0; index < tx.vin.length; index++) {
        // Each input costs signature checks: let other requests run between inputs, and stop for a client that left.
        if (index % YIELD_EVERY === YIELD_EVERY - 1) {
          await new Promise(setImmediate);
          if (ctx.signal?.aborted) throw new RpcError(RPC.MISC_ERROR, 'signrawtransaction stopped: the client disconnected');
        }
        const txin = tx.vin[index]!;
        const coin = view.get(txin.prevout.hash, txin.prevout.index);
        if (!coin) {
          complete = false;
          writeInputError(errors, txin, scriptSigs[index]!, 'Input not found or already spent');
          continue;
        }
        const input = { index, amount: coin.value, spent };
        const checker = new TransactionSignatureChecker(tx, input);
        let scriptSig: Uint8Array = new Uint8Array(0);
        // SIGHASH_SINGLE signs only an input with an output at its index.
        if (!hashSingle || index < tx.vout.length) {
          scriptSig = produceSignature({ tx, input, hashType, keys, checker }, coin.scriptPubKey, branchId).scriptSig;
        }
        for (const variant of variants) {
          // A variant with fewer inputs contributes nothing (zcashd asserts it has the input).
          const theirs = variant.vin[index]?.scriptSig ?? new Uint8Array(0);
          scriptSig = combineSignatures(coin.scriptPubKey, checker, scriptSig, theirs, branchId);
        }
        scriptSigs[index] = scriptSig;
        const error = verifyScript(scriptSig, coin.scriptPubKey, STANDARD_SCRIPT_VERIFY_FLAGS, checker, branchId);
        if (error !== ScriptError.OK) {
          complete = false;
          writeInputError(errors, txin, scriptSig, scriptErrorString(error));
        }
      }

      // The inputs may be views over the bytes read (their fields getters), so each is rebuilt.
      const vin = tx.vin.map((i, n): TxIn => ({ prevout: i.prevout, scriptSig: scriptSigs[n]!, sequence: i.sequence }));
      const signed: TransactionData = { ...tx, vin };
      const w = new JsonWriter().beginObject();
      w.key('hex').hexStr(encodeTransaction(signed));
      w.key('complete').bool(complete);
      if (!complete) w.key('errors').raw(errors.endArray().toString());
      return w.endObject().toString();
    },
  };
}
