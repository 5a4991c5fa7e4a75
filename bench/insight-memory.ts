/**
 * Memory the insight methods use per index entry, against what their allowance charges.
 *
 * `getaddressdeltas`, `getaddresstxids`, `getaddressutxos` and `getblockhashes` may read only
 * their request's reply memory's worth of entries (`-rpcrequestmemory` over the method's charge
 * per entry, INDEX_ENTRY_BYTES in src/rpc/methods/addressindex/insight-method.ts);
 * `getaddressbalance` reads a batch at a time and is not limited. This measures what an entry
 * really costs, on a regtest chain whose first blocks each pay one address FAN_OUT outputs in
 * one transaction (ENTRIES entries in all) and another SPREAD_PER_BLOCK outputs, one a
 * transaction (getaddresstxids keeps a txid per transaction, so it is asked about that one),
 * followed by empty blocks up to BLOCKS (getblockhashes' entries are blocks):
 *
 * - peak: how far the process's resident memory rises above where it stood before the call, at
 *   its highest (the kernel's high-water mark, reset just before the call; Linux only), per
 *   entry. Each method runs in a fresh child process, after one call that finds nothing, so only
 *   the entries' cost is left. This counts the garbage the collector has not yet taken, as the
 *   machine feels it;
 * - held: what the reply the method returns keeps alive, and what the entries it reads keep
 *   alive, each measured on its own between full collections, per entry.
 *
 * Each figure is reported beside the method's charge; a ratio of at least 1× means a request is
 * refused before it can use more memory than it was given. Then each method taking a list of
 * addresses is asked about LISTED never-paid ones, against ADDRESS_WORK_BYTES (params.ts), the
 * charge per address listed.
 *
 * Run: npx tsx bench/insight-memory.ts [entries=200000]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REGTEST } from '../src/chain/network.js';
import { parseJson, type JsonValue } from '../src/json/index.js';
import { NO_EXPERIMENTAL_FEATURES } from '../src/rpc/methods/control/experimental-features.js';
import { INDEX_ENTRY_BYTES } from '../src/rpc/methods/addressindex/insight-method.js';
import { ADDRESS_WORK_BYTES } from '../src/rpc/methods/addressindex/params.js';
import { encodeTransparentAddress } from '../src/codec/script/address.js';
import { storeMethods } from '../src/rpc/methods/index.js';
import { defaultPoolHashers } from '../src/state/hashers.js';
import { openChainStore } from '../src/store/index.js';
import { AddressIndex } from '../src/store/indexes/address-index.js';
import { AddressIndexReader } from '../src/store/indexes/address-index-reader.js';
import { ChainStateIndex } from '../src/store/indexes/chain-state-index.js';
import { TxIndex } from '../src/store/indexes/tx-index.js';
import { COINBASE_MATURITY, fanOutChain, POOL, poolAddress } from '../test/support/address-index-chain.js';
import { load, QUICK, positional } from './lib/measure.js';
import { measureInChild, peakResident, resetPeakResident, settledMemory } from './lib/memory.js';

const ENTRIES = Number(positional()[0] ?? (QUICK ? 20_000 : 200_000));
const FAN_OUT = 2000;
/**
 * The SPREAD address's entries per paying block: as many as the FANNED address's, so every method
 * is measured over the same number of entries. At a quarter of them (50,000), a rise of ≈ 11 MB
 * that some runs take and others do not made getaddresstxids' peak 366 or 590 bytes an entry
 * from run to run; at 200,000 entries it was 353 and 365.
 */
const SPREAD_PER_BLOCK = FAN_OUT;
const BLOCKS = QUICK ? 2_000 : 20_000;
/** Paid FAN_OUT outputs a transaction; paid once a transaction; never paid (the warm-up calls ask for it). */
const FANNED = 0;
const SPREAD = 2;
const UNPAID = 1;

const indexers = () => [new TxIndex(), new ChainStateIndex({ network: REGTEST, hashers: defaultPoolHashers() }), new AddressIndex()];

/** What each method is asked (or, warming up, asked to find nothing), and what it reads from the index before replying. */
interface Case {
  params: (warmUp: boolean) => string;
  read: (reader: AddressIndexReader) => Promise<unknown[]>;
  entries: number;
}
const addressParam = (address: number) => (warmUp: boolean) => `["${poolAddress(warmUp ? UNPAID : address)}"]`;
const fanned = POOL[FANNED]!;
const spread = POOL[SPREAD]!;
const CASES: Record<string, Case> = {
  getaddressdeltas: { params: addressParam(FANNED), read: (r) => r.deltas(fanned.type, fanned.hash, 0, 0), entries: ENTRIES },
  getaddressbalance: { params: addressParam(FANNED), read: (r) => r.deltas(fanned.type, fanned.hash, 0, 0), entries: ENTRIES },
  // Its reply and what it keeps grow with transactions, not entries: every entry a transaction.
  getaddresstxids: {
    params: addressParam(SPREAD),
    read: (r) => r.deltaTransactions(spread.type, spread.hash, 0, 0),
    entries: (ENTRIES / FAN_OUT) * SPREAD_PER_BLOCK,
  },
  getaddressutxos: { params: addressParam(FANNED), read: (r) => r.unspent(fanned.type, fanned.hash), entries: ENTRIES },
  // Every block's time lies in [0, 2^31 - 1); the warm-up asks for an empty range. Logical
  // times make the longer reply.
  getblockhashes: {
    params: (warmUp) => (warmUp ? '[1, 0]' : '[2147483647, 0, {"logicalTimes":true}]'),
    read: (r) => r.timestamps(2147483647, 0),
    entries: BLOCKS, // not genesis, which zcashd connects without writing its indexes
  },
};

/** Never-paid addresses listed in one request, for the per-address charge (ADDRESS_WORK_BYTES). */
const LISTED = QUICK ? 20_000 : 200_000;
const LIST_METHODS = ['getaddresstxids', 'getaddressdeltas', 'getaddressutxos', 'getaddressbalance', 'getaddressmempool'];

/** In a child: the peak resident memory of one method asked about LISTED never-paid addresses. */
async function measureList(datadir: string, name: string): Promise<void> {
  const store = await openChainStore({ datadir, network: REGTEST, indexers: indexers() });
  const methods = new Map(
    storeMethods(store, { features: { ...NO_EXPERIMENTAL_FEATURES, insightExplorer: true } }).map((m) => [m.name, m]),
  );
  const method = methods.get(name)!;
  const ctx = { network: REGTEST, requestStop: () => {} };
  const list = (n: number) =>
    JSON.stringify([{ addresses: Array.from({ length: n }, () => encodeTransparentAddress('p2pkh', randomBytes(20), REGTEST)) }]);
  await method.call(parseJson(list(1000)) as JsonValue[], ctx);
  const body = list(LISTED); // the request's text, as the server holds it before parsing
  await settledMemory();
  const rss = resetPeakResident();
  await method.call(parseJson(body) as JsonValue[], ctx);
  const peak = peakResident() - rss;
  await store.close();
  console.log(JSON.stringify({ peak, n: LISTED }));
}

/** In a child: one method's peak and held memory, printed as a JSON line. */
async function measure(datadir: string, name: string): Promise<void> {
  const c = CASES[name]!;
  const store = await openChainStore({ datadir, network: REGTEST, indexers: indexers() });
  const methods = new Map(
    storeMethods(store, { features: { ...NO_EXPERIMENTAL_FEATURES, insightExplorer: true } }).map((m) => [m.name, m]),
  );
  const method = methods.get(name)!;
  const ctx = { network: REGTEST, requestStop: () => {} };
  await method.call(parseJson(c.params(true)) as JsonValue[], ctx);
  const params = parseJson(c.params(false)) as JsonValue[];

  const base = await settledMemory();
  const rss = resetPeakResident();
  let reply: string | Buffer | null = await method.call(params, ctx);
  const peak = peakResident() - rss;
  const replyHeld = (await settledMemory()) - base;
  const replyBytes = reply.length;
  reply = null;

  const before = await settledMemory();
  const entries = await c.read(new AddressIndexReader(store.database));
  const entriesHeld = (await settledMemory()) - before;
  if (entries.length !== c.entries) throw new Error(`${name}: the index returned ${entries.length} entries, not ${c.entries}`);
  await store.close();
  console.log(JSON.stringify({ peak, replyHeld, replyBytes, entriesHeld, n: entries.length }));
}

async function main(): Promise<void> {
  const datadir = mkdtempSync(join(tmpdir(), 'zecrpc-bench-insight-memory-'));
  try {
    const store = await openChainStore({ datadir, network: REGTEST, indexers: indexers(), groupCommit: true });
    const chain = fanOutChain({
      blocks: BLOCKS - COINBASE_MATURITY, // after matureStart()'s: BLOCKS after genesis in all
      entries: ENTRIES,
      fanOut: FAN_OUT,
      spreadPerBlock: SPREAD_PER_BLOCK,
      fanned: FANNED,
      spread: SPREAD,
    });
    for (const b of chain) await store.addBlock(b.bytes);
    await store.flush();
    await store.database.compactRange(Buffer.of(0x00), Buffer.of(0xff));
    await store.close();
    console.log(
      `regtest chain of ${chain.length} blocks paying one address ${ENTRIES.toLocaleString('en-US')} outputs (${FAN_OUT} a transaction) and another ` +
        `${((ENTRIES / FAN_OUT) * SPREAD_PER_BLOCK).toLocaleString('en-US')} (one a transaction); ` +
        `each method in its own process; ${load()}`,
    );
    for (const name of Object.keys(CASES)) {
      const r = measureInChild<{ peak: number; replyHeld: number; replyBytes: number; entriesHeld: number; n: number }>(
        fileURLToPath(import.meta.url),
        { INSIGHT_MEMORY_CHILD: name, INSIGHT_MEMORY_DATADIR: datadir },
        process.argv.slice(2),
        name,
      );
      const charge = (INDEX_ENTRY_BYTES as Record<string, number>)[name];
      const per = (bytes: number) => (bytes / r.n).toFixed(0);
      const verdict =
        charge === undefined ? 'not charged (read a batch at a time)' : `charge ÷ peak ${(charge / (r.peak / r.n)).toFixed(2)}×`;
      console.log(
        `${name}, ${r.n.toLocaleString('en-US')} entries, charged ${charge ?? 'nothing'}${charge === undefined ? '' : ' bytes an entry'}: ` +
          `peak ${per(r.peak)} bytes an entry → ${verdict} | held: reply ${per(r.replyHeld)} (its text ${per(r.replyBytes)}), entries read ${per(r.entriesHeld)}`,
      );
    }
    console.log(
      `lists of ${LISTED.toLocaleString('en-US')} never-paid addresses, charged ${ADDRESS_WORK_BYTES} bytes an address (parsing included):`,
    );
    for (const name of LIST_METHODS) {
      const r = measureInChild<{ peak: number; n: number }>(
        fileURLToPath(import.meta.url),
        { INSIGHT_MEMORY_LIST: name, INSIGHT_MEMORY_DATADIR: datadir },
        process.argv.slice(2),
        `${name} (list)`,
      );
      const per = r.peak / r.n;
      console.log(`${name}: peak ${per.toFixed(0)} bytes an address → charge ÷ peak ${(ADDRESS_WORK_BYTES / per).toFixed(2)}×`);
    }
  } finally {
    if (!process.env.KEEP) rmSync(datadir, { recursive: true, force: true });
    else console.log(datadir);
  }
}

const childMethod = process.env.INSIGHT_MEMORY_CHILD;
const listMethod = process.env.INSIGHT_MEMORY_LIST;
if (childMethod) await measure(process.env.INSIGHT_MEMORY_DATADIR!, childMethod);
else if (listMethod) await measureList(process.env.INSIGHT_MEMORY_DATADIR!, listMethod);
else await main();
