/**
 * `getblockdeltas "blockhash"` (zcashd v6.12.2 src/rpc/blockchain.cpp blockToDeltasJSON): a
 * best-chain block's transparent value movements, inputs resolved through the spent index.
 * With -lightwalletd alone zcashd keeps no spent index, so a block with a non-coinbase
 * transaction fails with -32603 "Spent information not available", as it does here.
 */
import { difficultyFromBits } from '../../../chain/pow.js';
import { decodeBlock } from '../../../codec/block.js';
import { STORED_BLOCK_ACCEPTANCE } from '../../../codec/tx/acceptance.js';
import { encodeTransparentAddress } from '../../../codec/script/address.js';
import { destinationKindOf } from '../../../codec/script/solver.js';
import { hexInt, toHexReversed } from '../../../codec/hex.js';
import { getStr } from '../../../json/getters.js';
import { JsonWriter } from '../../../json/writer.js';
import { addressHash, scriptType } from '../../../store/indexes/address-index.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { uint256FromHexLenient } from '../../params.js';
import { requireBlockBytes, requireBlockIndex } from '../blockchain/context.js';
import type { ExperimentalFeatures } from '../control/experimental-features.js';
import { insightMethod, type InsightContext } from './insight-method.js';

const HEAD = 'getblockdeltas "blockhash"\n' + '\nReturns information about the given block and its transactions.\n';

const TAIL =
  '\nArguments:\n' +
  '1. "hash"          (string, required) The block hash\n' +
  '\nResult:\n' +
  '{\n' +
  '  "hash": "hash",              (string) block ID\n' +
  '  "confirmations": n,          (numeric) number of confirmations\n' +
  '  "size": n,                   (numeric) block size in bytes\n' +
  '  "height": n,                 (numeric) block height\n' +
  '  "version": n,                (numeric) block version (e.g. 4)\n' +
  '  "merkleroot": "hash",        (hexstring) block Merkle root\n' +
  '  "deltas": [\n' +
  '    {\n' +
  '      "txid": "hash",          (hexstring) transaction ID\n' +
  '      "index": n,              (numeric) The offset of the tx in the block\n' +
  '      "inputs": [                (array of json objects)\n' +
  '        {\n' +
  '          "address": "taddr",  (string) transparent address\n' +
  '          "satoshis": n,       (numeric) negative of spend amount\n' +
  '          "index": n,          (numeric) vin index\n' +
  '          "prevtxid": "hash",  (string) source utxo tx ID\n' +
  '          "prevout": n         (numeric) source utxo index\n' +
  '        }, ...\n' +
  '      ],\n' +
  '      "outputs": [             (array of json objects)\n' +
  '        {\n' +
  '          "address": "taddr",  (string) transparent address\n' +
  '          "satoshis": n,       (numeric) amount\n' +
  '          "index": n           (numeric) vout index\n' +
  '        }, ...\n' +
  '      ]\n' +
  '    }, ...\n' +
  '  ],\n' +
  '  "time" : n,                  (numeric) The block version\n' +
  '  "mediantime": n,             (numeric) The most recent blocks\' ave time\n' +
  '  "nonce" : "nonce",           (hex string) The nonce\n' +
  '  "bits" : "1d00ffff",         (hex string) The bits\n' +
  '  "difficulty": n,             (numeric) the current difficulty\n' +
  '  "chainwork": "xxxx"          (hex string) total amount of work in active chain\n' +
  '  "previousblockhash" : "hash",(hex string) The hash of the previous block\n' +
  '  "nextblockhash" : "hash"     (hex string) The hash of the next block\n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getblockdeltas', '00227e566682aebd6a7a5b772c96d7a999cadaebeaf1ce96f4191a3aad58b00b') +
  exampleRpc('getblockdeltas', '"00227e566682aebd6a7a5b772c96d7a999cadaebeaf1ce96f4191a3aad58b00b"');

/** nTime: header bytes 100..104. */
function headerTime(header: Uint8Array): number {
  return (header[100]! | (header[101]! << 8) | (header[102]! << 16) | (header[103]! << 24)) >>> 0;
}

/** CBlockIndex::GetMedianTimePast: the median time of the block and up to 10 ancestors. */
async function medianTimePast(store: ChainStoreReader, header: Uint8Array, height: number): Promise<number> {
  const times = [headerTime(header)];
  let prev = header.subarray(4, 36);
  for (let h = height - 1; h >= 0 && times.length < 11; h--) {
    const entry = await store.blockIndex(prev);
    if (!entry) break;
    times.push(headerTime(entry.header));
    prev = entry.prevHash;
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

function addressOf(type: number, hash: Uint8Array, network: Parameters<typeof encodeTransparentAddress>[2]): string | null {
  const kind = destinationKindOf(type);
  return kind && encodeTransparentAddress(kind, hash, network);
}

export function getBlockDeltasMethod(c: InsightContext, features: ExperimentalFeatures): RpcMethod {
  return insightMethod(
    {
      name: 'getblockdeltas',
      category: 'blockchain',
      required: 1,
      optional: 0,
      gate: 'insight-or-lightwalletd',
      helpHead: HEAD,
      helpTail: TAIL,
      async call(params, ctx) {
        const hash = uint256FromHexLenient(getStr(params[0]!));
        const entry = await requireBlockIndex(c.store, hash);
        const block = decodeBlock(await requireBlockBytes(c.store, entry), STORED_BLOCK_ACCEPTANCE);
        const tip = await c.store.tip();
        if (!tip || !entry.onBestChain || entry.height > tip.height) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Block is an orphan');
        const network = ctx.network;
        const w = new JsonWriter().beginObject();
        w.key('hash').plainStr(toHexReversed(hash));
        w.key('confirmations').int(tip.height - entry.height + 1);
        w.key('size').int(block.size);
        w.key('height').int(entry.height);
        w.key('version').int(block.header.version);
        w.key('merkleroot').plainStr(toHexReversed(block.header.merkleRoot));
        w.key('deltas').beginArray();
        block.transactions.forEach((tx, i) => {
          w.beginObject().key('txid').plainStr(tx.txidHex).key('index').int(i);
          w.key('inputs').beginArray();
          if (!tx.isCoinbase) {
            tx.data.vin.forEach((input, j) => {
              // GetSpentIndex: zcashd keeps the spent index only with -insightexplorer.
              const info = features.insightExplorer ? c.index.spent(input.prevout.hash, input.prevout.index) : null;
              if (!info) throw new RpcError(RPC.INTERNAL_ERROR, 'Spent information not available');
              w.beginObject();
              const address = addressOf(info.type, info.hash, network);
              if (address) w.key('address').plainStr(address);
              w.key('satoshis').int(-info.value);
              w.key('index').int(j);
              w.key('prevtxid').plainStr(toHexReversed(input.prevout.hash));
              w.key('prevout').int(input.prevout.index);
              w.endObject();
            });
          }
          w.endArray();
          w.key('outputs').beginArray();
          tx.data.vout.forEach((out, k) => {
            w.beginObject();
            const type = scriptType(out.scriptPubKey);
            const address = addressOf(type, addressHash(out.scriptPubKey, type), network);
            if (address) w.key('address').plainStr(address);
            w.key('satoshis').int(out.value);
            w.key('index').int(k);
            w.endObject();
          });
          w.endArray().endObject();
        });
        w.endArray();
        w.key('time').int(block.header.time);
        w.key('mediantime').int(await medianTimePast(c.store, entry.header, entry.height));
        w.key('nonce').plainStr(toHexReversed(block.header.nonce));
        w.key('bits').plainStr(hexInt(block.header.bits));
        w.key('difficulty').double(difficultyFromBits(block.header.bits, network));
        w.key('chainwork').plainStr(entry.chainWork.toString(16).padStart(64, '0'));
        if (entry.height > 0) w.key('previousblockhash').plainStr(toHexReversed(entry.prevHash));
        if (entry.height < tip.height) {
          const next = await c.store.hashAtHeight(entry.height + 1);
          if (next) w.key('nextblockhash').plainStr(toHexReversed(next));
        }
        return w.endObject().toString();
      },
    },
    features,
  );
}
