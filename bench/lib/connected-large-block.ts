/**
 * A regtest chain whose tip is a large block the store connects (chain state, address index),
 * shaped like mainnet 106598 (1.39 MB, 41 transactions, 9,250 transparent inputs): the real block
 * cannot be connected anywhere (its parents are not in the vectors), and serving benches need a
 * block with a chain-state record, as every block of a synced node has.
 *
 * Heights 1..100 are coinbase-only; height 101, the first that may spend a coinbase, fans block
 * 1's out into 9,250 P2PKH outputs (in four transactions chained through their change, each under
 * the 100,000 bytes zcashd allows a transaction before Sapling); height 102 spends all of them in
 * 41 transactions whose inputs
 * carry signature-sized scriptSigs (a 72-byte and a 33-byte push; zecrpc verifies no scripts, so
 * their content is arbitrary).
 */
import { REGTEST } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { decodeTransaction } from '../../src/codec/tx/transaction.js';
import type { TransactionData } from '../../src/codec/tx/types.js';
import { sha256 } from '../../src/crypto/hash.js';
import { openChainStore } from '../../src/store/index.js';
import { COINBASE_MATURITY, encodeV1Transaction } from '../../test/support/address-index-chain.js';
import { buildBlock, buildChain, regtestGenesis, type BuiltBlock } from '../../test-vectors/regtest-builder.js';

export const LARGE_BLOCK_INPUTS = 9_250;
export const LARGE_BLOCK_TXS = 41;
/** Transactions the fan-out is split into, each under MAX_TX_SIZE_BEFORE_SAPLING. */
const FAN_OUT_TXS = 4;

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

/** Genesis, then the blocks described above; the last is the large one. */
export function connectedLargeBlockChain(): BuiltBlock[] {
  const genesis = regtestGenesis();
  const prefix = [genesis, ...buildChain(genesis, COINBASE_MATURITY, 'large')];
  const paying = prefix[1]!;
  const coinbase = decodeBlock(paying.bytes).transactions[0]!;
  const each = Math.floor(coinbase.data.vout[0]!.value / LARGE_BLOCK_INPUTS);
  const fanOuts: Uint8Array[] = [];
  const outpoints: { hash: Uint8Array; index: number }[] = [];
  const perTx = Math.ceil(LARGE_BLOCK_INPUTS / FAN_OUT_TXS);
  let source = { hash: coinbase.txid, index: 0 };
  let left = coinbase.data.vout[0]!.value;
  for (let first = 0; first < LARGE_BLOCK_INPUTS; first += perTx) {
    const count = Math.min(perTx, LARGE_BLOCK_INPUTS - first);
    left -= count * each;
    const outputs = Array.from({ length: count }, (_, i) => ({ value: each, scriptPubKey: p2pkh(first + i) }));
    const bytes = encodeV1Transaction(
      [{ prevout: source, scriptSig: Uint8Array.of(0x51), sequence: 0xffffffff }],
      [...outputs, { value: left, scriptPubKey: Uint8Array.of(0x51) }],
    );
    const txid = decodeTransaction(bytes).txid;
    for (let i = 0; i < count; i++) outpoints.push({ hash: txid, index: i });
    source = { hash: txid, index: count };
    fanOuts.push(bytes);
  }
  const funding = buildBlock({ parent: prefix.at(-1)!, tag: 'large', extraTxs: fanOuts });
  const spends: Uint8Array[] = [];
  for (let t = 0; t < LARGE_BLOCK_TXS; t++) {
    const vin: TransactionData['vin'] = [];
    for (let n = t; n < LARGE_BLOCK_INPUTS; n += LARGE_BLOCK_TXS) {
      vin.push({ prevout: outpoints[n]!, scriptSig: signatureSizedScriptSig(n), sequence: 0xffffffff });
    }
    spends.push(encodeV1Transaction(vin, [{ value: each * vin.length, scriptPubKey: p2pkh(t) }]));
  }
  const large = buildBlock({ parent: funding, tag: 'large', extraTxs: spends });
  return [...prefix, funding, large];
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
