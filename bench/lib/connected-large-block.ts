/**
 * A regtest chain whose tip is a large block the store connects (chain state, address index),
 * shaped like mainnet 106598 (1.39 MB, 41 transactions, 9,250 transparent inputs): the real block
 * cannot be connected anywhere (its parents are not in the vectors), and serving benches need a
 * block with a chain-state record, as every block of a synced node has.
 *
 * Height 1 pays its coinbase; height 2 fans that coinbase out into 9,250 P2PKH outputs; height 3
 * spends all of them in 41 transactions whose inputs carry signature-sized scriptSigs (a 72-byte
 * and a 33-byte push; zecrpc verifies no scripts, so their content is arbitrary).
 */
import { REGTEST } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { decodeTransaction } from '../../src/codec/tx/transaction.js';
import type { TransactionData } from '../../src/codec/tx/types.js';
import { sha256 } from '../../src/crypto/hash.js';
import { openChainStore } from '../../src/store/index.js';
import { encodeV1Transaction } from '../../test/support/address-index-chain.js';
import { buildBlock, regtestGenesis, type BuiltBlock } from '../../test-vectors/regtest-builder.js';

export const LARGE_BLOCK_INPUTS = 9_250;
export const LARGE_BLOCK_TXS = 41;

const p2pkh = (i: number): Uint8Array =>
  Uint8Array.from([0x76, 0xa9, 0x14, ...sha256(Buffer.of(i & 0xff, i >> 8)).subarray(0, 20), 0x88, 0xac]);

/** A scriptSig the size of a P2PKH spend's: push(72-byte signature) push(33-byte key). */
function signatureSizedScriptSig(n: number): Uint8Array {
  const s = new Uint8Array(107);
  s[0] = 72;
  s.fill((n * 7) & 0xff, 1, 73);
  s[73] = 33;
  s.fill((n * 13) & 0xff, 74);
  return s;
}

/** Genesis, then the three blocks described above; the last is the large one. */
export function connectedLargeBlockChain(): BuiltBlock[] {
  const genesis = regtestGenesis();
  const paying = buildBlock({ parent: genesis, tag: 'large' });
  const coinbase = decodeBlock(paying.bytes).transactions[0]!;
  const each = Math.floor(coinbase.data.vout[0]!.value / LARGE_BLOCK_INPUTS);
  const fanOut = encodeV1Transaction(
    [{ prevout: { hash: coinbase.txid, index: 0 }, scriptSig: Uint8Array.of(0x51), sequence: 0xffffffff }],
    Array.from({ length: LARGE_BLOCK_INPUTS }, (_, i) => ({ value: each, scriptPubKey: p2pkh(i) })),
  );
  const fanOutTxid = decodeTransaction(fanOut).txid;
  const funding = buildBlock({ parent: paying, tag: 'large', extraTxs: [fanOut] });
  const spends: Uint8Array[] = [];
  for (let t = 0; t < LARGE_BLOCK_TXS; t++) {
    const vin: TransactionData['vin'] = [];
    for (let n = t; n < LARGE_BLOCK_INPUTS; n += LARGE_BLOCK_TXS) {
      vin.push({ prevout: { hash: fanOutTxid, index: n }, scriptSig: signatureSizedScriptSig(n), sequence: 0xffffffff });
    }
    spends.push(encodeV1Transaction(vin, [{ value: each * vin.length, scriptPubKey: p2pkh(t) }]));
  }
  const large = buildBlock({ parent: funding, tag: 'large', extraTxs: spends });
  return [genesis, paying, funding, large];
}

/** Imports the chain into a fresh regtest store at `datadir` (every indexer on); returns the large block. */
export async function writeConnectedLargeBlockStore(datadir: string): Promise<BuiltBlock> {
  const chain = connectedLargeBlockChain();
  const store = await openChainStore({ datadir, network: REGTEST });
  try {
    for (const b of chain) {
      const r = await store.addBlock(b.bytes);
      if (r.status !== 'connected' && r.status !== 'duplicate') throw new Error(`block ${b.height} was not connected (${r.status})`);
    }
  } finally {
    await store.close();
  }
  return chain[chain.length - 1]!;
}
