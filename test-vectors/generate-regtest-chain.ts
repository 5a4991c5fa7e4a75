/**
 * Writes test-vectors/regtest-reorg/: a regtest base chain (genesis..30) and a competing branch
 * forking after height 10 that reaches height 45, so importing both makes the store reorganize
 * 20 blocks deep and the branch leads by 15 blocks. Deterministic: rerunning gives identical files.
 *
 *   npx tsx test-vectors/generate-regtest-chain.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildChain, regtestGenesis, type BuiltBlock } from './regtest-builder.js';

export const BASE_TIP = 30;
export const FORK_HEIGHT = 10;
export const BRANCH_TIP = 45;

const outDir = join(dirname(fileURLToPath(import.meta.url)), 'regtest-reorg');
const genesis = regtestGenesis();
const base = [genesis, ...buildChain(genesis, BASE_TIP, 'base')];
const branch = buildChain(base[FORK_HEIGHT]!, BRANCH_TIP - FORK_HEIGHT, 'branch');

const lines = (blocks: BuiltBlock[]): string => blocks.map((b) => Buffer.from(b.bytes).toString('hex')).join('\n') + '\n';
const summary = (blocks: BuiltBlock[]) => blocks.map((b) => ({ height: b.height, hash: b.hashHex }));

mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'base.hex'), lines(base));
writeFileSync(join(outDir, 'branch.hex'), lines(branch));
writeFileSync(
  join(outDir, 'manifest.json'),
  JSON.stringify(
    {
      description:
        'Synthetic regtest chain for reorg tests, made by test-vectors/generate-regtest-chain.ts with the project encoder. ' +
        'base.hex: one block hex per line, heights 0..30 (line n = height n; height 0 is the real regtest genesis). ' +
        'branch.hex: heights 11..45, forking from base height 10. Coinbase-only blocks with the BIP34 height, paying the miner 6.25 ZEC ' +
        "and regtest's founders' reward (2.5 ZEC to t2FwcEhFdNXuFMv1tcYwaBJtYVtMj8b1uTg), valid merkle roots, " +
        'bits 200f0f0f, times 150 s apart, and mined: a real Equihash (48,5) solution (test-vectors/equihash-solver.ts) whose ' +
        "block hash meets the target, so every block passes zcashd's header rules and its transaction and coinbase rules.",
      network: 'regtest',
      forkHeight: FORK_HEIGHT,
      base: summary(base),
      branch: summary(branch),
    },
    null,
    1,
  ) + '\n',
);
console.log(`wrote ${base.length} base and ${branch.length} branch blocks to ${outDir}`);
