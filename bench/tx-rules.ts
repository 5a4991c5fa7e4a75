/**
 * What zcashd's transaction rules cost the import, on every real block in the test vectors:
 * CheckBlock's and ContextualCheckBlock's per-transaction rules and the founders' reward
 * (chain/block-rules.ts, run before a block is connected), against decoding the block and
 * hashing its txids, which the import does for every block anyway.
 *
 *   npx tsx bench/tx-rules.ts            (ZECRPC_VECTORS overrides the vectors folder)
 *
 * Interleaved rounds of CPU time; the ratio is taken per round. The connect-time checks
 * (state/connect-checks.ts: P2SH signature ops, fees, coinbase maturity and amount) are a pass
 * over the inputs' coins the state transition has already read, and are not timed here.
 */
import { checkBlockTransactions, checkFoundersReward, contextualCheckBlockTransactions } from '../src/chain/block-rules.js';
import { MAINNET, networkParams, type NetworkParams } from '../src/chain/network.js';
import { decodeBlock, type Block } from '../src/codec/block.js';
import { setPointCheckCache } from '../src/crypto/curves.js';
import { readHexVector, realBlockFiles, zcashd2019Heights } from '../test/support/vectors.js';
import { cpuMicros, fmt, load, median, numberFlag, spread } from './lib/measure.js';

// Every Orchard ephemeral key is checked as a server would meet it for the first time.
setPointCheckCache(false);

interface Vector {
  network: NetworkParams;
  height: number;
  bytes: Uint8Array;
  block: Block;
}

const vectors: Vector[] = [
  ...realBlockFiles().map((f) => ({ network: networkParams(f.network), height: f.height, bytes: readHexVector(f.file) })),
  ...zcashd2019Heights().map((h) => ({ network: MAINNET, height: h, bytes: readHexVector('zcashd-2019', `${h}.hex`) })),
].map((v) => ({ ...v, block: decodeBlock(v.bytes) }));
const txCount = vectors.reduce((n, v) => n + v.block.transactions.length, 0);
const bytes = vectors.reduce((n, v) => n + v.bytes.length, 0);

function decodePass(): void {
  for (const v of vectors) for (const tx of decodeBlock(v.bytes).transactions) void tx.txid;
}

function rulesPass(): void {
  for (const { block, height, network } of vectors) {
    const problem =
      checkBlockTransactions(block, height) ??
      contextualCheckBlockTransactions(block, height, network) ??
      checkFoundersReward(block, height, network);
    if (problem) throw new Error(`a real block broke ${problem.rule}: ${problem.message}`);
  }
}

/** CPU µs of `pass` repeated for about `ms` of CPU time, per pass. */
function timed(pass: () => void, ms: number): number {
  let passes = 0;
  const start = cpuMicros();
  do {
    pass();
    passes++;
  } while (cpuMicros() - start < ms * 1000);
  return (cpuMicros() - start) / passes;
}

const rounds = numberFlag('rounds', 7);
decodePass();
rulesPass();
const decodeUs: number[] = [];
const rulesUs: number[] = [];
const shares: number[] = [];
for (let r = 0; r < rounds; r++) {
  const d = timed(decodePass, 400);
  const c = timed(rulesPass, 400);
  decodeUs.push(d);
  rulesUs.push(c);
  shares.push((100 * c) / d);
}
const s = spread(shares);
const perTx = median(rulesUs) / txCount;
console.log(`${vectors.length} real blocks (mainnet, testnet, zcashd-2019), ${fmt(txCount)} transactions, ${(bytes / 1e6).toFixed(2)} MB`);
console.log(
  `transaction rules before connecting, ${rounds} interleaved rounds: ${fmt(median(rulesUs))} µs a pass, ${perTx.toFixed(2)} µs a transaction | ` +
    `decode + txids ${fmt(median(decodeUs))} µs a pass | rules ÷ decode + txids ${s.median.toFixed(1)} % (${s.min.toFixed(1)}–${s.max.toFixed(1)}) | ${load()}`,
);
// Mainnet scale (bench/lib/mainnet.ts counts): every transaction through the rules once.
console.log(`projection, one core: 20 M transactions × ${perTx.toFixed(2)} µs = ${((20e6 * perTx) / 3.6e9).toFixed(3)} h`);
