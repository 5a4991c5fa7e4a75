// Regtest chains with transparent spending for the address-index tests: every block's coinbase
// pays a fixed P2PKH script (and the founders' reward while it is due), and later blocks carry v1
// transactions that spend earlier outputs (also outputs created earlier in the same block) to a
// small pool of P2PKH and P2SH addresses, with now and then an output no address stands for (P2PK,
// OP_RETURN). Coinbase outputs are spent only once mature, 100 blocks on, as zcashd requires: the
// chains start with `matureStart()`, genesis and 100 coinbase-only blocks.
import { REGTEST } from '../../src/chain/network.js';
import { decodeBlock, type Block } from '../../src/codec/block.js';
import { encodeTransparentAddress } from '../../src/codec/script/address.js';
import { decodeTransaction, encodeTransaction } from '../../src/codec/tx/transaction.js';
import type { TransactionData, TxOut } from '../../src/codec/tx/types.js';
import { sha256 } from '../../src/crypto/hash.js';
import { buildBlock, regtestGenesis, type BuiltBlock } from '../../test-vectors/regtest-builder.js';

export interface Utxo {
  txid: Uint8Array;
  n: number;
  value: number;
  script: Uint8Array;
  /** The first height whose block may spend it: a coinbase output's 100 blocks on, any other's at once. */
  spendableFrom: number;
}

/** COINBASE_MATURITY: a coinbase output is spendable by the block 100 above its own. */
export const COINBASE_MATURITY = 100;

/** A chain position: its block and the transparent outputs unspent after it. */
export interface ChainNode {
  block: BuiltBlock;
  utxos: Utxo[];
}

const hash20 = (label: string): Uint8Array => sha256(Buffer.from(label)).subarray(0, 20);

/** The address pool: 4 P2PKH and 2 P2SH hashes. */
export const POOL = [0, 1, 2, 3]
  .map((i) => ({ type: 1, hash: hash20(`pkh${i}`) }))
  .concat([0, 1].map((i) => ({ type: 2, hash: hash20(`sh${i}`) })));

export function poolAddress(i: number): string {
  const a = POOL[i]!;
  return encodeTransparentAddress(a.type === 1 ? 'p2pkh' : 'p2sh', a.hash, REGTEST);
}

export function scriptFor(i: number): Uint8Array {
  const a = POOL[i]!;
  return a.type === 1 ? Uint8Array.from([0x76, 0xa9, 0x14, ...a.hash, 0x88, 0xac]) : Uint8Array.from([0xa9, 0x14, ...a.hash, 0x87]);
}

const P2PK = Uint8Array.from([0x21, 0x02, ...new Uint8Array(32).fill(7), 0xac]);
const OP_RETURN = Uint8Array.from([0x6a, 0x04, 1, 2, 3, 4]);

/** A deterministic pseudo-random stream (xorshift32), so a failing case replays exactly. */
export function rng(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x1_0000_0000;
  };
}

/** A v1 (pre-Overwinter, transparent-only) transaction's bytes. */
export function encodeV1Transaction(vin: TransactionData['vin'], vout: TxOut[]): Uint8Array {
  return encodeTransaction({
    format: 'v1',
    overwintered: false,
    version: 1,
    versionGroupId: 0,
    consensusBranchId: null,
    lockTime: 0,
    expiryHeight: 0,
    vin,
    vout,
    joinSplits: [],
    joinSplitPubKey: null,
    joinSplitSig: null,
    sapling: null,
    orchard: null,
  });
}

export function genesisNode(): ChainNode {
  return { block: regtestGenesis(), utxos: [] };
}

/** The coinbase outputs of `block` as unspent outputs, spendable once mature. */
function coinbaseUtxos(block: BuiltBlock): Utxo[] {
  const coinbase = decodeBlock(block.bytes).transactions[0]!;
  return coinbase.data.vout.map((o, n) => ({
    txid: coinbase.txid,
    n,
    value: o.value,
    script: o.scriptPubKey,
    spendableFrom: block.height + COINBASE_MATURITY,
  }));
}

/**
 * Genesis and the `COINBASE_MATURITY` coinbase-only blocks after it, so the block after the last
 * may spend block 1's coinbase, and each block after that one more.
 */
export function matureStart(tag = 'mature'): ChainNode[] {
  const nodes: ChainNode[] = [genesisNode()];
  for (let h = 1; h <= COINBASE_MATURITY; h++) {
    const parent = nodes[h - 1]!;
    const block = buildBlock({ parent: parent.block, tag });
    nodes.push({ block, utxos: [...parent.utxos, ...coinbaseUtxos(block)] });
  }
  return nodes;
}

/**
 * One block on `parent`: up to `maxTxs` spending transactions, each taking 1–3 unspent outputs
 * (outputs of earlier transactions in the block included) and paying 1–3 outputs.
 */
export function nextNode(parent: ChainNode, tag: string, random: () => number, maxTxs = 3): ChainNode {
  const height = parent.block.height + 1;
  const utxos = [...parent.utxos];
  const spendable = (): number[] => utxos.flatMap((u, i) => (u.spendableFrom <= height ? [i] : []));
  const txs: Uint8Array[] = [];
  const count = Math.floor(random() * (maxTxs + 1));
  for (let t = 0; t < count && spendable().length > 0; t++) {
    const spend: Utxo[] = [];
    const nIn = 1 + Math.floor(random() * 3);
    for (let i = 0; i < nIn; i++) {
      const candidates = spendable();
      if (candidates.length === 0) break;
      spend.push(utxos.splice(candidates[Math.floor(random() * candidates.length)]!, 1)[0]!);
    }
    const total = spend.reduce((s, u) => s + u.value, 0);
    const nOut = 1 + Math.floor(random() * 3);
    const vout: TxOut[] = [];
    let left = total;
    for (let o = 0; o < nOut; o++) {
      const value = o === nOut - 1 ? left : Math.floor(left * random() * 0.8);
      left -= value;
      const r = random();
      const script = r < 0.08 ? P2PK : r < 0.12 ? OP_RETURN : scriptFor(Math.floor(random() * POOL.length));
      vout.push({ value, scriptPubKey: script });
    }
    const bytes = encodeV1Transaction(
      spend.map((u, i) => ({ prevout: { hash: u.txid, index: u.n }, scriptSig: Uint8Array.of(0x01, i, 0x01, t), sequence: 0xffffffff })),
      vout,
    );
    const txid = decodeTransaction(bytes).txid;
    vout.forEach((o, n) => {
      if (o.scriptPubKey[0] !== 0x6a) utxos.push({ txid, n, value: o.value, script: o.scriptPubKey, spendableFrom: height });
    });
    txs.push(bytes);
  }
  const block = buildBlock({ parent: parent.block, tag, extraTxs: txs });
  return { block, utxos: [...utxos, ...coinbaseUtxos(block)] };
}

export function decodedBlocks(nodes: readonly ChainNode[]): Block[] {
  return nodes.map((n) => decodeBlock(n.block.bytes));
}

/** How `fanOutChain` pays two pool addresses. */
export interface FanOutPlan {
  /** Blocks after `matureStart()`'s. */
  blocks: number;
  /** Outputs paid to `fanned` in all, `fanOut` in one transaction a block. */
  entries: number;
  fanOut: number;
  /** Transactions a paying block adds, each paying `spread` one output. */
  spreadPerBlock: number;
  fanned: number;
  spread: number;
}

/** An output script no address stands for (the change of `fanOutChain`'s transactions). */
const ANYONE = Uint8Array.of(0x51);

/** A v1 transaction spending output `index` of `txid` into `outputs`, and its txid. */
function spendTo(txid: Uint8Array, index: number, outputs: TxOut[]): { bytes: Uint8Array; txid: Uint8Array } {
  const bytes = encodeV1Transaction([{ prevout: { hash: txid, index }, scriptSig: Uint8Array.of(0x51), sequence: 0xffffffff }], outputs);
  return { bytes, txid: decodeTransaction(bytes).txid };
}

/**
 * `matureStart()`'s blocks and `plan.blocks` more: addresses with long histories in few blocks.
 * While outputs remain to be paid, a block spends the coinbase that just matured into `fanOut`
 * outputs of 1,000 zatoshis to pool address `fanned` and change, then spends the change in a
 * chain of `spreadPerBlock` transactions, each paying pool address `spread` 1,000 zatoshis once.
 */
export function fanOutChain(plan: FanOutPlan): BuiltBlock[] {
  const blocks: BuiltBlock[] = matureStart('fan-out').map((n) => n.block);
  const last = COINBASE_MATURITY + plan.blocks;
  let paid = 0;
  while (blocks.length <= last) {
    const parent = blocks[blocks.length - 1]!;
    const height = parent.height + 1;
    const txs: Uint8Array[] = [];
    if (paid < plan.entries) {
      const coinbase = decodeBlock(blocks[height - COINBASE_MATURITY]!.bytes).transactions[0]!;
      const outputs = Math.min(plan.fanOut, plan.entries - paid);
      let change = coinbase.data.vout[0]!.value - outputs * 1000;
      let tx = spendTo(coinbase.txid, 0, [
        ...Array.from({ length: outputs }, () => ({ value: 1000, scriptPubKey: scriptFor(plan.fanned) })),
        { value: change, scriptPubKey: ANYONE },
      ]);
      txs.push(tx.bytes);
      for (let i = 0; i < plan.spreadPerBlock; i++) {
        change -= 1000;
        tx = spendTo(tx.txid, i === 0 ? outputs : 1, [
          { value: 1000, scriptPubKey: scriptFor(plan.spread) },
          { value: change, scriptPubKey: ANYONE },
        ]);
        txs.push(tx.bytes);
      }
      paid += outputs;
    }
    blocks.push(buildBlock({ parent, tag: 'fan-out', extraTxs: txs }));
  }
  return blocks;
}
