/**
 * `createrawtransaction [{"txid":"id","vout":n},...] {"address":amount,...} ( locktime )
 * ( expiryheight )` (zcashd v6.12.2 src/rpc/rawtransaction.cpp `createrawtransaction`, with
 * `CreateNewContextualCMutableTransaction` of src/main.cpp): an unsigned transaction for the
 * next block's consensus rules — v5 from NU5 on (v4 there with -preferredtxversion=4), v4
 * from Sapling, v3 from Overwinter, v1 before — with zcashd's default expiry height (the next
 * height + -txexpirydelta, by default 20 before Blossom and 40 from Blossom on, capped below
 * the next upgrade's activation), its checks in its order and its errors.
 *
 * The method is deprecated but allowed by default in zcashd (`-allowdeprecated` lists it), and
 * its help says so.
 */
import { branchIdAt, isUpgradeActive, type NetworkParams } from '../../../chain/network.js';
import { toHex } from '../../../codec/hex.js';
import { decodeTransparentAddress } from '../../../codec/script/address.js';
import { destinationScript } from '../../../codec/script/destination-script.js';
import { serializeTransparentTransaction, type TransparentInput, type TransparentOutput } from '../../../codec/tx/transparent-builder.js';
import type { TxCreationDefaults } from '../../../config.js';
import { getInt, getInt64, getObj } from '../../../json/getters.js';
import { JsonNumber, jsonTypeName, type JsonValue } from '../../../json/value.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { amountFromValue } from '../../amount.js';
import { helpExampleCli, helpExampleRpc, helpLines } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { parseHashV } from '../../params.js';
import { tipHeight } from '../blockchain/context.js';

const PRE_BLOSSOM_EXPIRY_DELTA = 20;
const POST_BLOSSOM_EXPIRY_DELTA = 40;
const TX_EXPIRY_HEIGHT_THRESHOLD = 500_000_000;
const TX_EXPIRING_SOON_THRESHOLD = 3;
const UINT32_MAX = 0xffffffff;

const EXAMPLE = '"[{\\"txid\\":\\"myid\\",\\"vout\\":0}]"';
const EXAMPLE_SEND = '"{\\"address\\":0.01}"';

const HELP =
  'createrawtransaction [{"txid":"id","vout":n},...] {"address":amount,...} ( locktime ) ( expiryheight )\n' +
  '\ncreaterawtransaction is DEPRECATED and will be removed in a future release.\n' +
  'Zallet will instead provide new RPC methods that operate on PCZTs:\n' +
  'https://github.com/zcash/wallet/issues/99\n' +
  'See https://zcash.github.io/zcash/user/deprecation.html for more information.\n' +
  helpLines(
    '',
    'Create a transaction spending the given inputs and sending to the given addresses.',
    'Returns hex-encoded raw transaction.',
    "Note that the transaction's inputs are not signed, and",
    'it is not stored in the wallet or transmitted to the network.',
    '',
    'Arguments:',
    '1. "transactions"        (string, required) A json array of json objects',
    '     [',
    '       {',
    '         "txid":"id",    (string, required) The transaction id',
    '         "vout":n        (numeric, required) The output number',
    '         "sequence":n    (numeric, optional) The sequence number',
    '       }',
    '       ,...',
    '     ]',
    '2. "addresses"           (string, required) a json object with addresses as keys and amounts as values',
    '    {',
    '      "address": x.xxx   (numeric, required) The key is the Zcash address, the value is the ZEC amount',
    '      ,...',
    '    }',
    '3. locktime              (numeric, optional, default=0) Raw locktime. Non-0 value also locktime-activates inputs',
    `4. expiryheight          (numeric, optional, default=nextblockheight+${PRE_BLOSSOM_EXPIRY_DELTA} (pre-Blossom) or nextblockheight+${POST_BLOSSOM_EXPIRY_DELTA} (post-Blossom)) Expiry height of transaction (if Overwinter is active)`,
    '',
    'Result:',
    '"transaction"            (string) hex string of the transaction',
    '',
    'Examples',
  ) +
  helpExampleCli('createrawtransaction', `${EXAMPLE} ${EXAMPLE_SEND}`) +
  helpExampleRpc('createrawtransaction', `${EXAMPLE}, ${EXAMPLE_SEND}`);

const invalidParameter = (message: string): RpcError => new RpcError(RPC.INVALID_PARAMETER, message);

/** `RPCTypeCheck(params, {array, object, number, number}, fAllowNull=true)`. */
function checkTypes(params: readonly JsonValue[]): void {
  const expected = ['array', 'object', 'number', 'number'] as const;
  params.forEach((value, i) => {
    const type = jsonTypeName(value);
    if (i < expected.length && type !== expected[i] && type !== 'null') {
      throw new RpcError(RPC.TYPE_ERROR, `Expected type ${expected[i]}, got ${type}`);
    }
  });
}

/** zcashd's defaults: v5 where NU5 is active, the expiry delta by era. */
export const ZCASHD_TX_CREATION: TxCreationDefaults = { preferredTxVersion: 5, expiryDelta: null };

/** The format `CurrentTxVersionInfo` picks for a transaction mined at `height` (v4 at most with `requireV4`). */
function versionAt(network: NetworkParams, height: number, requireV4: boolean): 1 | 3 | 4 | 5 {
  if (isUpgradeActive(network, 'NU5', height) && !requireV4) return 5;
  if (isUpgradeActive(network, 'Sapling', height)) return 4;
  if (isUpgradeActive(network, 'Overwinter', height)) return 3;
  return 1;
}

/** `NextActivationHeight`: the first upgrade scheduled above `height`, if any. */
function nextActivationHeight(network: NetworkParams, height: number): number | null {
  for (const u of network.upgrades) if (u.activationHeight !== null && u.activationHeight > height) return u.activationHeight;
  return null;
}

/**
 * CreateNewContextualCMutableTransaction's default expiry height: `expiryDelta` (-txexpirydelta)
 * or the era's, past `height`, capped below the next upgrade. A delta that takes it past the
 * expiry threshold is refused with zcashd's message.
 */
export function defaultExpiryHeight(network: NetworkParams, height: number, expiryDelta: number | null = null): number {
  const delta = expiryDelta ?? (isUpgradeActive(network, 'Blossom', height) ? POST_BLOSSOM_EXPIRY_DELTA : PRE_BLOSSOM_EXPIRY_DELTA);
  if (height + delta >= TX_EXPIRY_HEIGHT_THRESHOLD) throw new Error('CreateNewContextualCMutableTransaction: invalid expiry height');
  const next = nextActivationHeight(network, height);
  return next === null ? height + delta : Math.min(height + delta, next - 1);
}

function readInputs(inputs: readonly JsonValue[], lockTime: number): TransparentInput[] {
  return inputs.map((input) => {
    const o = getObj(input);
    const txid = parseHashV(o.get('txid'), 'txid');
    const vout = o.get('vout');
    if (!(vout instanceof JsonNumber)) throw invalidParameter('Invalid parameter, missing vout key');
    const n = getInt(vout);
    if (n < 0) throw invalidParameter('Invalid parameter, vout must be positive');
    const sequenceValue = o.get('sequence');
    // get_int's int32 lands in a uint32: -1 is 0xffffffff.
    const sequence = sequenceValue instanceof JsonNumber ? getInt(sequenceValue) >>> 0 : lockTime !== 0 ? UINT32_MAX - 1 : UINT32_MAX;
    return { txid, vout: n, sequence };
  });
}

function readOutputs(sendTo: JsonValue, network: NetworkParams): TransparentOutput[] {
  const object = getObj(sendTo);
  const seen = new Set<string>();
  const outputs: TransparentOutput[] = [];
  for (const [name] of object.entries) {
    const destination = decodeTransparentAddress(name, network);
    if (destination === null) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, `Invalid Zcash address: ${name}`);
    const key = destination.kind + toHex(destination.hash);
    if (seen.has(key)) throw invalidParameter(`Invalid parameter, duplicated address: ${name}`);
    seen.add(key);
    outputs.push({ script: destinationScript(destination), value: amountFromValue(object.get(name)) });
  }
  return outputs;
}

export function createRawTransactionMethod(store: ChainStoreReader, defaults: TxCreationDefaults = ZCASHD_TX_CREATION): RpcMethod {
  return {
    name: 'createrawtransaction',
    category: 'rawtransactions',
    required: 2,
    optional: 2,
    help: HELP,
    asciiResults: true,
    async call(params, ctx) {
      checkTypes(params);
      if (params[0] === null || params[1] === null) throw invalidParameter('Invalid parameter, arguments 1 and 2 must be non-null');
      const inputs = params[0] as JsonValue[];
      const network = ctx.network;
      const height = (await tipHeight(store)) + 1;
      const version = versionAt(network, height, defaults.preferredTxVersion < 5);
      let expiryHeight = version === 1 ? 0 : defaultExpiryHeight(network, height, defaults.expiryDelta);

      let lockTime = 0;
      const lockTimeParam = params[2];
      if (lockTimeParam !== undefined && lockTimeParam !== null) {
        const n = getInt64(lockTimeParam);
        if (n < 0n || n > BigInt(UINT32_MAX)) throw invalidParameter('Invalid parameter, locktime out of range');
        lockTime = Number(n);
      }

      const expiryParam = params[3];
      if (expiryParam !== undefined && expiryParam !== null) {
        if (!isUpgradeActive(network, 'Overwinter', height)) {
          throw invalidParameter('Invalid parameter, expiryheight can only be used if Overwinter is active when the transaction is mined');
        }
        const n = getInt64(expiryParam);
        if (n < 0n || n >= BigInt(TX_EXPIRY_HEIGHT_THRESHOLD)) {
          throw invalidParameter(`Invalid parameter, expiryheight must be nonnegative and less than ${TX_EXPIRY_HEIGHT_THRESHOLD}.`);
        }
        if (n !== 0n && BigInt(height + TX_EXPIRING_SOON_THRESHOLD) > n) {
          throw invalidParameter(
            `Invalid parameter, expiryheight should be at least ${height + TX_EXPIRING_SOON_THRESHOLD} to avoid transaction expiring soon`,
          );
        }
        expiryHeight = Number(n);
      }

      const tx = serializeTransparentTransaction({
        version,
        branchId: branchIdAt(network, height),
        lockTime,
        expiryHeight,
        inputs: readInputs(inputs, lockTime),
        outputs: readOutputs(params[1]!, network),
      });
      return `"${toHex(tx)}"`;
    },
  };
}
