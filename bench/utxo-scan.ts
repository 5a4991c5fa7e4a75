/**
 * gettxoutsetinfo's full scan of the coins view (rpc/methods/blockchain/gettxoutsetinfo.ts):
 * rows per second, and the longest the event loop waited meanwhile (other requests are answered
 * between chunks). The coins are synthetic rows written straight into a fresh regtest store's
 * coins view (`c` records: 1–3 outputs per txid, P2PKH scripts, varied values), after the
 * regtest-reorg base chain gives it a tip; the scan and the hash are the real ones. Wall time
 * depends on what else the machine runs; CPU time (the process's, LevelDB's threads included)
 * much less.
 *
 *   npx tsx bench/utxo-scan.ts [rows]      (default 1,000,000)
 */
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { REGTEST } from '../src/chain/network.js';
import { storeMethods } from '../src/rpc/methods/index.js';
import { encodeCoin, chainStateKeys } from '../src/store/indexes/chain-state-index.js';
import { openChainStore } from '../src/store/index.js';
import { regtestReorg, tempDir } from '../test/support/store.js';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const dir = tempDir('bench-utxo-scan');
const store = await openChainStore({ datadir: dir.path, network: REGTEST });
try {
  for (const b of regtestReorg().base) await store.addBlock(b);
  let written = 0;
  while (written < ROWS) {
    const batch = store.database.batch();
    for (let i = 0; i < 10_000 && written < ROWS;) {
      const txid = randomBytes(32);
      const outs = 1 + (txid[0]! % 3);
      for (let n = 0; n < outs && written < ROWS; n++, i++, written++) {
        const script = Buffer.concat([Buffer.from('76a914', 'hex'), txid.subarray(0, 20), Buffer.from('88ac', 'hex')]);
        const value = txid[1]! * 1_000_003 + n * 7919;
        batch.put(chainStateKeys.coin(txid, n), encodeCoin({ value, height: 1 + (txid[2]! % 30), coinbase: false, scriptPubKey: script }));
      }
    }
    await batch.write();
  }
  await store.database.compactRange(Buffer.of(0x63), Buffer.of(0x64));
  const method = storeMethods(store).find((m) => m.name === 'gettxoutsetinfo')!;
  for (let round = 0; round < 3; round++) {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    const reply = await method.call([], { network: REGTEST, requestStop: () => undefined });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    delay.disable();
    const txouts = (JSON.parse(String(reply)) as { txouts: number }).txouts;
    console.log(
      `round ${round + 1}: ${txouts} rows in ${seconds.toFixed(2)} s = ${Math.round(txouts / seconds).toLocaleString('en-US')} rows/s ` +
        `(${Math.round(txouts / cpuSeconds).toLocaleString('en-US')} rows per CPU second, all threads); ` +
        `event loop delay max ${(delay.max / 1e6).toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms`,
    );
  }
} finally {
  await store.close();
  dir.remove();
}
