/** `getaddressutxos` (zcashd v6.12.2 src/rpc/misc.cpp, insight explorer). */
import { encodeTransparentAddress } from '../../../codec/script/address.js';
import { toHexReversed } from '../../../codec/hex.js';
import { JsonWriter } from '../../../json/writer.js';
import { SCRIPT_P2PKH } from '../../../store/indexes/address-index.js';
import type { AddressUnspent } from '../../../store/indexes/address-index-reader.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { replyOf, type RpcMethod } from '../../method.js';
import type { ExperimentalFeatures } from '../control/experimental-features.js';
import { requireTip } from '../blockchain/context.js';
import { EntryAllowance, EXAMPLE_ADDRESS, insightMethod, type InsightContext } from './insight-method.js';
import { addressesFromParam, chainInfoFlag } from './params.js';

const HEAD =
  'getaddressutxos {"addresses": ["taddr", ...], ("chainInfo": true|false)}\n' + '\nReturns all unspent outputs for an address.\n';

const TAIL =
  '\nArguments:\n' +
  '{\n' +
  '  "addresses":\n' +
  '    [\n' +
  '      "address"  (string) The base58check encoded address\n' +
  '      ,...\n' +
  '    ],\n' +
  '  "chainInfo"  (boolean, optional, default=false) Include chain info with results\n' +
  '}\n' +
  '(or)\n' +
  '"address"  (string) The base58check encoded address\n' +
  '\nResult\n' +
  '[\n' +
  '  {\n' +
  '    "address"  (string) The address base58check encoded\n' +
  '    "txid"  (string) The output txid\n' +
  '    "height"  (number) The block height\n' +
  '    "outputIndex"  (number) The output index\n' +
  '    "script"  (string) The script hex encoded\n' +
  '    "satoshis"  (number) The number of zatoshis of the output\n' +
  '  }, ...\n' +
  ']\n\n' +
  '(or, if chainInfo is true):\n\n' +
  '{\n' +
  '  "utxos":\n' +
  '    [\n' +
  '      {\n' +
  '        "address"     (string)  The address base58check encoded\n' +
  '        "txid"        (string)  The output txid\n' +
  '        "height"      (number)  The block height\n' +
  '        "outputIndex" (number)  The output index\n' +
  '        "script"      (string)  The script hex encoded\n' +
  '        "satoshis"    (number)  The number of zatoshis of the output\n' +
  '      }, ...\n' +
  '    ],\n' +
  '  "hash"              (string)  The block hash\n' +
  '  "height"            (numeric) The block height\n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getaddressutxos', `'{"addresses": ["${EXAMPLE_ADDRESS}"], "chainInfo": true}'`) +
  exampleRpc('getaddressutxos', `{"addresses": ["${EXAMPLE_ADDRESS}"], "chainInfo": true}`);

/**
 * An unspent output kept until every address is read and the outputs are sorted: its txid and
 * script copied into its batch's `slab` at `at`, so the batch's read buffers can go.
 */
interface HeldUtxo {
  address: string;
  slab: Buffer;
  at: number;
  scriptLength: number;
  index: number;
  value: number;
  height: number;
}

/** An output's text beyond its address, script and numbers: the keys, punctuation and txid. */
const UTXO_FIXED_TEXT_BYTES = '{"address":"","txid":"","outputIndex":,"script":"","satoshis":,"height":},'.length + 64;
/** The array's brackets and the chainInfo wrapper (tip hash and height), at most. */
const CHAIN_INFO_MOST_BYTES = 256;

/** Decimal digits of a non-negative integer. */
function digits(n: number): number {
  let count = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) count++;
  return count;
}

/** The length of `u`'s text in the reply. */
function utxoTextBytes(u: HeldUtxo): number {
  return UTXO_FIXED_TEXT_BYTES + u.address.length + 2 * u.scriptLength + digits(u.index) + digits(u.value) + digits(u.height);
}

function hold(batch: readonly AddressUnspent[], address: string, into: HeldUtxo[]): void {
  let size = 0;
  for (const u of batch) size += 32 + u.script.length;
  const slab = Buffer.allocUnsafe(size);
  let at = 0;
  for (const u of batch) {
    slab.set(u.txid, at);
    slab.set(u.script, at + 32);
    into.push({ address, slab, at, scriptLength: u.script.length, index: u.index, value: u.value, height: u.height });
    at += 32 + u.script.length;
  }
}

export function getAddressUtxosMethod(c: InsightContext, features: ExperimentalFeatures): RpcMethod {
  return insightMethod(
    {
      name: 'getaddressutxos',
      category: 'addressindex',
      required: 1,
      optional: 0,
      gate: 'insight-or-lightwalletd',
      helpHead: HEAD,
      helpTail: TAIL,
      async call(params, ctx) {
        const includeChainInfo = chainInfoFlag(params[0]!);
        const utxos: HeldUtxo[] = [];
        const addresses = addressesFromParam(params[0]!, ctx);
        const allowance = new EntryAllowance(ctx, 'getaddressutxos', addresses.length);
        const reads = c.index.ranges(addresses.length);
        try {
          for (const a of addresses) {
            const address = encodeTransparentAddress(a.type === SCRIPT_P2PKH ? 'p2pkh' : 'p2sh', a.hash, ctx.network);
            for await (const batch of allowance.batches((limit) => reads.unspentBatches(a.type, a.hash, limit)))
              hold(batch, address, utxos);
          }
        } finally {
          await reads.close();
        }
        // zcashd sorts by height with std::sort, which leaves the order of equal heights to the
        // C++ library; here they keep the index order (address, then txid bytes, then output).
        utxos.sort((x, y) => x.height - y.height);
        // The outputs are all known now: room for exactly their text, so the reply is written
        // once, without the doubling (and the copy to its own size) of a growing buffer.
        let size = CHAIN_INFO_MOST_BYTES;
        for (const u of utxos) size += utxoTextBytes(u);
        const w = new JsonWriter(size);
        if (includeChainInfo) w.beginObject().key('utxos');
        w.beginArray();
        for (const u of utxos) {
          w.beginObject();
          w.key('address').plainStr(u.address);
          w.key('txid').hexStrReversed(u.slab, u.at, 32);
          w.key('outputIndex').int(u.index);
          w.key('script').hexStr(u.slab, u.at + 32, u.at + 32 + u.scriptLength);
          w.key('satoshis').int(u.value);
          w.key('height').int(u.height);
          w.endObject();
        }
        w.endArray();
        if (!includeChainInfo) return replyOf(w);
        const tip = await requireTip(c.store);
        w.key('hash').plainStr(toHexReversed(tip.hash)).key('height').int(tip.height);
        return replyOf(w.endObject());
      },
    },
    features,
  );
}
