/**
 * zcashd's insight explorer indexes (`-insightexplorer` / `-lightwalletd`, src/main.cpp
 * ConnectBlock/DisconnectBlock "insightexplorer" sections) as one indexer of the store:
 *
 * - address index `d`: every receive and spend of a P2PKH/P2SH address (CAddressIndexKey → zatoshis);
 * - address unspent index `a`: the unspent outputs of each address (CAddressUnspentKey → value);
 * - spent index `p`: which input spent an outpoint (CSpentIndexKey → CSpentIndexValue), for every
 *   non-coinbase input whatever its script type, as zcashd writes it;
 * - timestamp index `s`/`S`: blocks by logical time (nTime, forced strictly increasing along the chain).
 *
 * zcashd reads what an input spends from its UTXO set; so does this index, from the chain state
 * (chain-state-index.ts), which must therefore be kept by the same store: the chain state is the
 * core step, connects each block first and resolves every input on the way (outputs created
 * earlier in the same block from the block itself), and the chain hands those coins to this
 * index (`ConnectedBlock.inputCoins`), so a spend is looked up and decoded once; a replay
 * without the chain-state indexer (the version-4 migration) reads them through the chain
 * state's reader (chain-state-reader.ts) over the view it is given. This index keeps no undo
 * data of its own: at a disconnect the chain hands it the outputs the block spent, which the
 * chain state's undo blob keeps (and the block itself those it created and spent again), so it
 * never needs the coins view to still hold them. Like zcashd (ConnectBlock returns before
 * indexing the genesis block), nothing of the genesis block is indexed.
 *
 * One deliberate difference: zcashd never erases timestamp-index entries when it disconnects a block
 * (getblockhashes without noOrphans then still lists blocks of the losing branch); here a disconnected
 * block leaves no trace, so after a reorganization every index equals a replay of the active chain.
 */
import type { Block } from '../../codec/block.js';
import { bytesEqual, toHexReversed } from '../../codec/hex.js';
import { isUnspendable } from '../../codec/script/opcodes.js';
import { SCRIPT_P2PKH, SCRIPT_P2SH, SCRIPT_UNKNOWN } from '../../codec/script/solver.js';
import type { Coin } from '../../state/apply-block.js';
import type { BatchOp } from '../block-data.js';
import { ADDRESS_DELTA_KEY_BYTES, ADDRESS_UNSPENT_KEY_BYTES, SPENT_KEY_BYTES, copyHash160, keyWriters, keys } from '../layout.js';
import { PACKED_HEADER_BYTES, PackedOps } from '../packed-ops.js';
import { disconnectedFromUndoRecord, inputCoinsFromCoinsView } from './chain-state-reader.js';
import type { ChainBlock, ConnectedBlock, DisconnectedBlock, Indexer, IndexerConnect, IndexReadView } from './indexer.js';

export { SCRIPT_P2PKH, SCRIPT_P2SH, SCRIPT_UNKNOWN };

const ZERO_HASH160 = new Uint8Array(20);

/** CScript::GetType: only the exact P2PKH and P2SH templates have an address. */
export function scriptType(s: Uint8Array): number {
  if (s.length === 25 && s[0] === 0x76 && s[1] === 0xa9 && s[2] === 0x14 && s[23] === 0x88 && s[24] === 0xac) return SCRIPT_P2PKH;
  if (s.length === 23 && s[0] === 0xa9 && s[1] === 0x14 && s[22] === 0x87) return SCRIPT_P2SH;
  return SCRIPT_UNKNOWN;
}

/** CScript::AddressHash: the 20 hash bytes of a P2PKH/P2SH script (a view, not a copy), zeros otherwise. */
export function addressHash(s: Uint8Array, type: number): Uint8Array {
  // A Buffer view: a plain Uint8Array's subarray looks up its species constructor, several times slower.
  if (type === SCRIPT_P2PKH) return Buffer.from(s.buffer, s.byteOffset + 3, 20);
  if (type === SCRIPT_P2SH) return Buffer.from(s.buffer, s.byteOffset + 2, 20);
  return ZERO_HASH160;
}

/** The script an address-index entry stands for (rebuilt when a disconnect restores an output). */
export function addressScript(type: number, hash160: Uint8Array): Uint8Array {
  const s = new Uint8Array(type === SCRIPT_P2PKH ? 25 : 23);
  if (type === SCRIPT_P2PKH) {
    s.set([0x76, 0xa9, 0x14], 0);
    s.set(hash160, 3);
    s.set([0x88, 0xac], 23);
  } else {
    s.set([0xa9, 0x14], 0);
    s.set(hash160, 2);
    s[22] = 0x87;
  }
  return s;
}

const TWO_32 = 0x1_0000_0000;

/** An amount (|v| < 2^53) as zcashd's int64 little-endian CAmount. */
export function writeAmount(b: Buffer, v: number, at: number): void {
  const hi = Math.floor(v / TWO_32);
  b.writeUInt32LE(v - hi * TWO_32, at);
  b.writeInt32LE(hi, at + 4);
}

export function readAmount(b: Buffer, at: number): number {
  return b.readInt32LE(at + 4) * TWO_32 + b.readUInt32LE(at);
}

/** A Map key for an outpoint. */
function outpointId(txid: Uint8Array, n: number): string {
  return Buffer.from(txid.buffer, txid.byteOffset, 32).toString('latin1') + n;
}

/** What the index needs to know about a spent output. */
interface SpentOutput {
  value: number;
  height: number;
  type: number;
  hash: Uint8Array;
}

function spentOutputOf(value: number, height: number, script: Uint8Array): SpentOutput {
  const type = scriptType(script);
  return { value, height, type, hash: addressHash(script, type) };
}

/** The unspent-index value bytes: CAddressUnspentValue's satoshis and blockHeight. */
export const UNSPENT_VALUE_BYTES = 12;

/**
 * The unspent-index value: CAddressUnspentValue without its script, which the key's type and
 * hash determine (only the exact P2PKH/P2SH templates are indexed; addressScript rebuilds them).
 * Leaving it out saves most of the row's bytes, which every indexed output writes.
 */
export function encodeUnspentValue(value: number, height: number): Buffer {
  const v = Buffer.allocUnsafe(UNSPENT_VALUE_BYTES);
  writeAmount(v, value, 0);
  v.writeUInt32LE(height, 8);
  return v;
}

/** CAddressUnspentValue of an entry of address (type, hash160); values written by schema version 4 hold the script. */
export function decodeUnspentValue(v: Buffer, type: number, hash160: Uint8Array): { value: number; height: number; script: Uint8Array } {
  const script = v.length > UNSPENT_VALUE_BYTES ? v.subarray(UNSPENT_VALUE_BYTES) : addressScript(type, hash160);
  return { value: readAmount(v, 0), height: v.readUInt32LE(8), script };
}

/**
 * CSpentIndexValue, with the spending transaction named by its position in its block (`txIndex`)
 * instead of its txid: the block's txid list (`u`, found through `h` at `height`) resolves it when
 * getspentinfo asks: 28 of the entry's 69 value bytes (about a tenth of what an input writes in its
 * three rows). Values written by schema version 4 hold the txid itself; both forms are read
 * (`txid` is null in the new one).
 */
export interface SpentInfo {
  txid: Uint8Array | null;
  txIndex: number;
  inputIndex: number;
  height: number;
  value: number;
  type: number;
  hash: Uint8Array;
}

/** txIndex(u32 LE) ‖ vin(u32 LE) ‖ height(u32 LE) ‖ i64 LE value ‖ type(u8) ‖ hash160. */
export const SPENT_VALUE_BYTES = 4 + 4 + 4 + 8 + 1 + 20;
/** The version-4 value: the spending txid in place of txIndex. */
const SPENT_VALUE_BYTES_WITH_TXID = 32 + 4 + 4 + 8 + 1 + 20;

export function decodeSpent(v: Buffer): SpentInfo {
  const at = v.length === SPENT_VALUE_BYTES_WITH_TXID ? 32 : 4;
  return {
    txid: at === 32 ? v.subarray(0, 32) : null,
    txIndex: at === 32 ? -1 : v.readUInt32LE(0),
    inputIndex: v.readUInt32LE(at),
    height: v.readUInt32LE(at + 4),
    value: readAmount(v, at + 8),
    type: v[at + 16]!,
    hash: v.subarray(at + 17, at + 37),
  };
}

/** A spent output and the input that spent it. */
interface SpentCoin {
  txIndex: number;
  vin: number;
  prevTxid: Uint8Array;
  prevN: number;
  coin: SpentOutput;
}

/** The logical time of a block (timestamp index), or 0 when it has none (zcashd's fallback). */
export function logicalTimeOf(view: IndexReadView, hash: Uint8Array): number {
  const v = view.get(keys.blockTimestamp(hash));
  return v ? v.readUInt32LE(0) : 0;
}

const MISSING_CHAIN_STATE =
  'the address index reads spent outputs from the chain state (ChainStateIndex), which this store does not keep: open it with both indexers';

export class AddressIndex implements Indexer {
  readonly name = 'addressindex';
  /** Undo blobs of this tag, which earlier versions wrote, are ignored (see spentByBlock). */
  readonly undoTag = 0x61;
  readonly keyPrefixes = keys.addressIndexPrefixes;
  readonly needsCore = true;

  /** `core`: what the chain state connected; without it the inputs are read through the chain state's reader. */
  async connect(block: ChainBlock, view: IndexReadView, core?: ConnectedBlock): Promise<IndexerConnect> {
    if (block.height === 0) return { ops: [] };
    const decoded = await block.block();
    const coins = core?.inputCoins ?? inputCoinsFromCoinsView(block, decoded, view, () => new Error(MISSING_CHAIN_STATE));
    return connectOps(block, decoded, coins, view);
  }

  /** `core`: what the chain state gave back for the block; without it, read from the block's undo record. */
  async disconnect(
    block: ChainBlock,
    _undo: Uint8Array | null,
    view: IndexReadView,
    record: ReadonlyMap<number, Uint8Array>,
    core?: DisconnectedBlock,
  ): Promise<BatchOp[]> {
    if (block.height === 0) return [];
    const decoded = await block.block();
    const spent = core ?? disconnectedFromUndoRecord(record);
    return disconnectOps(block, decoded, spent ? spentByBlock(block, decoded, spent) : [], view);
  }
}

/**
 * What the block's inputs spent, in input order: the chain state gives back the coins it took
 * from the coins view (its undo blob keeps them), in that order, and the block itself the outputs
 * it created and spent again. An input neither accounts for spent a coin unknown to a store
 * started from a checkpoint, which has no entries here either.
 */
function spentByBlock(chainBlock: ChainBlock, block: Block, disconnected: DisconnectedBlock): SpentCoin[] {
  const { height, txids } = chainBlock;
  const fromView = disconnected.spent;
  let next = 0;
  const created = new Map<string, SpentOutput>();
  const out: SpentCoin[] = [];
  block.transactions.forEach((tx, i) => {
    if (!(i === 0 && tx.isCoinbase)) {
      tx.data.vin.forEach(({ prevout }, vin) => {
        const key = outpointId(prevout.hash, prevout.index);
        const own = created.get(key);
        const stored = fromView[next];
        let coin: SpentOutput | null = null;
        if (own) {
          created.delete(key);
          coin = own;
        } else if (stored && stored.n === prevout.index && bytesEqual(stored.txid, prevout.hash)) {
          next++;
          coin = spentOutputOf(stored.coin.value, stored.coin.height, stored.coin.scriptPubKey);
        }
        if (coin) out.push({ txIndex: i, vin, prevTxid: prevout.hash, prevN: prevout.index, coin });
      });
    }
    tx.data.vout.forEach((o, k) => {
      if (!isUnspendable(o.scriptPubKey)) created.set(outpointId(txids[i]!, k), spentOutputOf(o.value, height, o.scriptPubKey));
    });
  });
  if (next !== fromView.length) {
    throw new Error(`the chain state's undo data of block ${toHexReversed(chainBlock.hash)} does not match its inputs`);
  }
  return out;
}

/** Where the 20 hash bytes of a P2PKH/P2SH script begin (-1 for other scripts). */
function addressHashAt(type: number): number {
  return type === SCRIPT_P2PKH ? 3 : type === SCRIPT_P2SH ? 2 : -1;
}

const ROW_BYTES_PER_INPUT =
  3 * PACKED_HEADER_BYTES + ADDRESS_DELTA_KEY_BYTES + 8 + ADDRESS_UNSPENT_KEY_BYTES + SPENT_KEY_BYTES + SPENT_VALUE_BYTES;
/** Two rows per output: its delta and its unspent entry. */
const ROW_BYTES_PER_OUTPUT = 2 * PACKED_HEADER_BYTES + ADDRESS_DELTA_KEY_BYTES + 8 + ADDRESS_UNSPENT_KEY_BYTES + UNSPENT_VALUE_BYTES;

/**
 * `coins`: what each input spends (null: unknown to a store started from a checkpoint; such an
 * input cannot be attributed to an address and is left out of every index).
 *
 * The rows are written straight into one PackedOps buffer (keys with keyWriters, values in place,
 * address hashes copied from the scripts), the same bytes `keys` and the encoders above produce.
 */
function connectOps(
  chainBlock: ChainBlock,
  block: Block,
  coins: readonly (readonly (Coin | null)[])[],
  view: IndexReadView,
): IndexerConnect {
  const { height, txids } = chainBlock;
  const { transactions } = block;
  let inputs = 0;
  let outputs = 0;
  for (const c of coins) inputs += c.length;
  for (const tx of transactions) outputs += tx.data.vout.length;
  // Enough for P2PKH/P2SH rows (headers included): three per input, two per output.
  const rows = new PackedOps(inputs * ROW_BYTES_PER_INPUT + outputs * ROW_BYTES_PER_OUTPUT + 64);
  for (let i = 0; i < transactions.length; i++) {
    const txid = txids[i]!;
    const { vin, vout } = transactions[i]!.data;
    const spends = coins[i]!;
    for (let j = 0; j < spends.length; j++) {
      const coin = spends[j];
      if (!coin) continue;
      const { prevout } = vin[j]!;
      const script = coin.scriptPubKey;
      const type = scriptType(script);
      const hashAt = addressHashAt(type);
      if (type !== SCRIPT_UNKNOWN) {
        let at = rows.unique(ADDRESS_DELTA_KEY_BYTES, 8);
        keyWriters.addressDelta(rows.buffer, at, type, script, hashAt, height, i, txid, j, true);
        writeAmount(rows.buffer, -coin.value, at + ADDRESS_DELTA_KEY_BYTES);
        at = rows.del(ADDRESS_UNSPENT_KEY_BYTES);
        keyWriters.addressUnspent(rows.buffer, at, type, script, hashAt, prevout.hash, prevout.index);
      }
      // The spent value (SpentInfo): spending tx's position ‖ vin ‖ height ‖ value ‖ type ‖ hash.
      const at = rows.unique(SPENT_KEY_BYTES, SPENT_VALUE_BYTES);
      const b = rows.buffer;
      keyWriters.spent(b, at, prevout.hash, prevout.index);
      const v = at + SPENT_KEY_BYTES;
      b.writeUInt32LE(i, v);
      b.writeUInt32LE(j, v + 4);
      b.writeUInt32LE(height, v + 8);
      writeAmount(b, coin.value, v + 12);
      b[v + 20] = type;
      writeHash(b, v + 21, script, hashAt);
    }
    for (let k = 0; k < vout.length; k++) {
      const { scriptPubKey: script, value } = vout[k]!;
      const type = scriptType(script);
      if (type === SCRIPT_UNKNOWN) continue;
      const hashAt = addressHashAt(type);
      // Rows of a new output (keyed by its txid): see BatchOp's `fresh` and PackedOps.unique.
      let at = rows.unique(ADDRESS_DELTA_KEY_BYTES, 8);
      keyWriters.addressDelta(rows.buffer, at, type, script, hashAt, height, i, txid, k, false);
      writeAmount(rows.buffer, value, at + ADDRESS_DELTA_KEY_BYTES);
      // The unspent value: value ‖ height (encodeUnspentValue).
      at = rows.put(ADDRESS_UNSPENT_KEY_BYTES, UNSPENT_VALUE_BYTES, true);
      const b = rows.buffer;
      keyWriters.addressUnspent(b, at, type, script, hashAt, txid, k);
      const v = at + ADDRESS_UNSPENT_KEY_BYTES;
      writeAmount(b, value, v);
      b.writeUInt32LE(height, v + 8);
    }
  }

  // CTimestampIndexKey: nTime, or one past the parent's logical time if that is not earlier.
  const parentTime = logicalTimeOf(view, block.header.prevHash);
  const logical = block.header.time <= parentTime ? parentTime + 1 : block.header.time;
  const time = Buffer.allocUnsafe(4);
  time.writeUInt32LE(logical, 0);
  const ops: BatchOp[] = [
    { type: 'packed', rows },
    { type: 'put', key: keys.timestamp(logical, chainBlock.hash), value: Buffer.alloc(0) },
    { type: 'put', key: keys.blockTimestamp(chainBlock.hash), value: time },
  ];
  return { ops };
}

/** The 20 hash bytes of a P2PKH/P2SH script (`hashAt` ≥ 0), zeros otherwise. */
function writeHash(out: Buffer, at: number, script: Uint8Array, hashAt: number): void {
  if (hashAt < 0) out.fill(0, at, at + 20);
  else copyHash160(out, at, script, hashAt);
}

function disconnectOps(chainBlock: ChainBlock, block: Block, spent: readonly SpentCoin[], view: IndexReadView): BatchOp[] {
  const { height, txids } = chainBlock;
  const ops: BatchOp[] = [];
  block.transactions.forEach((tx, i) => {
    const txid = txids[i]!;
    tx.data.vout.forEach((out, k) => {
      const type = scriptType(out.scriptPubKey);
      if (type !== SCRIPT_UNKNOWN) {
        const hash = addressHash(out.scriptPubKey, type);
        ops.push({ type: 'del', key: keys.addressDelta(type, hash, height, i, txid, k, false) });
        ops.push({ type: 'del', key: keys.addressUnspent(type, hash, txid, k) });
      }
    });
  });
  for (const s of spent) {
    const { coin } = s;
    ops.push({ type: 'del', key: keys.spent(s.prevTxid, s.prevN) });
    if (coin.type !== SCRIPT_UNKNOWN) {
      ops.push({ type: 'del', key: keys.addressDelta(coin.type, coin.hash, height, s.txIndex, txids[s.txIndex]!, s.vin, true) });
    }
    // An output created in this block and spent in it again stays gone with the block.
    if (coin.height === height) continue;
    if (coin.type !== SCRIPT_UNKNOWN) {
      ops.push({
        type: 'put',
        key: keys.addressUnspent(coin.type, coin.hash, s.prevTxid, s.prevN),
        value: encodeUnspentValue(coin.value, coin.height),
      });
    }
  }
  const logical = logicalTimeOf(view, chainBlock.hash);
  ops.push({ type: 'del', key: keys.timestamp(logical, chainBlock.hash) });
  ops.push({ type: 'del', key: keys.blockTimestamp(chainBlock.hash) });
  return ops;
}
