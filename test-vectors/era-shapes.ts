/**
 * The block shapes of mainnet's eras, read from the real blocks in ../shared/test-vectors: each
 * real block becomes a `BlockShape` with its transactions' counts of transparent inputs and
 * outputs, Sapling spends and outputs and Orchard actions, for `EraChainGenerator` to rebuild.
 *
 * Samples per era (mainnet heights; upgrade heights from zcashd's chainparams and, for NU6.2 and
 * NU6.3, the nu6.3 vectors' README):
 * - `sprout` (0 – 419,199: before Sapling): zcashd-2019's blocks below 419,200, a "random(ish)
 *   sample" of the chain up to August 2019 (its README), e.g. 106598 (1.39 MB, 41 transactions,
 *   9,249 inputs), 171059 (1,501 outputs in 3 transactions), 233924 (696 inputs, 670 outputs).
 * - `sapling` (419,200 – 1,687,103: Sapling to NU5): zcashd-2019's blocks from 419,200 on, and
 *   blocks/mainnet's Sapling-era blocks with transactions (419201, 419202, 434873, 653601, 903000,
 *   903001, 949496, 982681).
 * - `nu5` (1,687,104 – 3,428,142: NU5 to NU6.3): blocks/mainnet 1687106 – 1687118 and nu6.3's
 *   3428141 – 3428142 (NU6.2), e.g. 3428142 (16 Orchard actions, 75.7 kB).
 * - `nu63` (3,428,143 on): nu6.3's 3428143 – 3428146, e.g. 3428145 (35 Orchard actions in 4
 *   transactions, 132.7 kB).
 * - `spam` (the 2022 Sapling-output spam, inside the NU5 era): no such block is in the vectors; the
 *   shape is issue 40's "1.9 MB blocks of many Sapling outputs": two transactions, each spending
 *   one Sapling note into 1,000 Sapling outputs (948 bytes each), 1.9 MB a block.
 *
 * What the builders cannot make is mapped, not dropped:
 * - JoinSplits move no value (the era network has Canopy from height 1, after which no value may
 *   enter Sprout, ZIP 211, so the pool stays empty): a transaction whose JoinSplits were its only
 *   source or sink of funds gets one transparent input or output instead;
 * - a transaction of more than one shielded protocol (JoinSplits, Sapling, Orchard with Ironwood)
 *   becomes one transaction for each, its transparent parts in the first;
 * - from NU6.3 Orchard actions move no value: the value an Orchard-to-Ironwood migration moves
 *   comes from its transparent inputs, where it has any.
 */
import { readdirSync } from 'node:fs';
import { decodeBlock } from '../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../src/codec/tx/acceptance.js';
import type { Transaction } from '../src/codec/tx/transaction.js';
import { readHexVector, vectorPath } from '../test/support/vectors.js';
import type { BuiltBlock } from './regtest-builder.js';
import type { BlockShape, EraChainGenerator, TxShape } from './era-chain.js';

export type EraName = 'sprout' | 'sapling' | 'spam' | 'nu5' | 'nu63';

export const ERA_NAMES: readonly EraName[] = ['sprout', 'sapling', 'spam', 'nu5', 'nu63'];

/** A real block's shape, with where it came from. */
export interface SampledBlock {
  source: string;
  height: number;
  bytes: number;
  shape: BlockShape;
}

/**
 * The shapes of one real transaction: one for each shielded protocol it uses (Orchard and
 * Ironwood actions together, Sapling, Sprout), its transparent parts in the first; `nu63` for a
 * transaction of a block from NU6.3 on.
 */
function shapesOf(tx: Transaction, nu63: boolean): TxShape[] {
  const d = tx.data;
  const orchardActions = d.orchard?.actions.length ?? 0;
  const ironwoodActions = d.ironwood?.actions.length ?? 0;
  const saplingSpends = d.sapling?.spends.length ?? 0;
  const saplingOutputs = d.sapling?.outputs.length ?? 0;
  const joinSplits = d.joinSplits.length;
  const parts: Omit<TxShape, 'inputs' | 'outputs'>[] = [];
  if (orchardActions + ironwoodActions > 0)
    parts.push({ ...(orchardActions ? { orchardActions } : {}), ...(ironwoodActions ? { ironwoodActions } : {}) });
  if (saplingSpends + saplingOutputs > 0) parts.push({ saplingSpends, saplingOutputs });
  if (joinSplits > 0) parts.push({ joinSplits });
  if (parts.length === 0) return [{ inputs: Math.max(1, d.vin.length), outputs: Math.max(1, d.vout.length) }];
  return parts.map((p, i) => fundable({ inputs: i === 0 ? d.vin.length : 0, outputs: i === 0 ? d.vout.length : 0, ...p }, nu63));
}

/**
 * A shape the generator can fund: Sapling outputs need a source (a transparent input or a Sapling
 * spend); Orchard and Ironwood actions fund themselves (each one spends a note), but from NU6.3
 * (`nu63`) Orchard takes no value in (ZIP 258), so transparent inputs with Orchard actions alone
 * need a transparent output; JoinSplits, which move no value here, need a transparent source for
 * transparent outputs and a sink for transparent inputs.
 */
function fundable(s: TxShape, nu63: boolean): TxShape {
  if (nu63 && (s.orchardActions ?? 0) > 0 && !s.ironwoodActions && s.inputs > 0 && s.outputs === 0) return { ...s, outputs: 1 };
  if ((s.joinSplits ?? 0) > 0) {
    if (s.outputs > 0 && s.inputs === 0) return { ...s, inputs: 1 };
    if (s.inputs > 0 && s.outputs === 0) return { ...s, outputs: 1 };
    return s;
  }
  if ((s.saplingOutputs ?? 0) > 0 && s.inputs === 0 && (s.saplingSpends ?? 0) === 0) return { ...s, inputs: 1 };
  if ((s.saplingSpends ?? 0) > 0 && (s.saplingOutputs ?? 0) === 0 && s.outputs === 0) return { ...s, outputs: 1 };
  return s;
}

function sample(source: string, parts: string[]): SampledBlock {
  const bytes = readHexVector(...parts);
  const block = decodeBlock(bytes, CURRENT_CHAIN_ACCEPTANCE);
  const height = Number(parts.at(-1)!.replace('.hex', ''));
  return {
    source,
    height,
    bytes: bytes.length,
    shape: block.transactions.slice(1).flatMap((tx) => shapesOf(tx, height >= ERA_HEIGHTS.nu63[0])),
  };
}

const hexFiles = (...dir: string[]): string[] =>
  readdirSync(vectorPath(...dir))
    .filter((n) => n.endsWith('.hex'))
    .sort((a, b) => Number(a.slice(0, -4)) - Number(b.slice(0, -4)));

/** 1.9 MB of Sapling-output spam: two transactions of one Sapling spend and 1,000 Sapling outputs. */
export const SPAM_BLOCK: BlockShape = [
  { inputs: 0, outputs: 0, saplingSpends: 1, saplingOutputs: 1000 },
  { inputs: 0, outputs: 0, saplingSpends: 1, saplingOutputs: 1000 },
];

const ERA_HEIGHTS: Record<Exclude<EraName, 'spam'>, [number, number]> = {
  sprout: [0, 419_199],
  sapling: [419_200, 1_687_103],
  nu5: [1_687_104, 3_428_142],
  nu63: [3_428_143, Infinity],
};

/** The real blocks of every era (the spam era's one synthetic shape included), in height order. */
export function eraSamples(): Record<EraName, SampledBlock[]> {
  const all: SampledBlock[] = [
    ...hexFiles('zcashd-2019').map((f) => sample('zcashd-2019', ['zcashd-2019', f])),
    ...hexFiles('blocks', 'mainnet')
      .filter((f) => Number(f.slice(0, -4)) >= 419_200)
      .map((f) => sample('blocks/mainnet', ['blocks', 'mainnet', f])),
    ...hexFiles('nu6.3', 'blocks', 'mainnet').map((f) => sample('nu6.3', ['nu6.3', 'blocks', 'mainnet', f])),
  ];
  const inEra = (era: Exclude<EraName, 'spam'>) => {
    const [from, to] = ERA_HEIGHTS[era];
    // Blocks with no transaction but the coinbase stay: they are part of every era's mix.
    return all.filter((b) => b.height >= from && b.height <= to).sort((a, b) => a.height - b.height);
  };
  return {
    sprout: inEra('sprout'),
    sapling: inEra('sapling'),
    spam: [{ source: 'issue 40 (no spam block in the vectors)', height: 0, bytes: 0, shape: SPAM_BLOCK }],
    nu5: inEra('nu5'),
    nu63: inEra('nu63'),
  };
}

/** A run of blocks of one era. */
export interface EraSegment {
  era: EraName;
  blocks: number;
}

/** One block a plan produced: its era, or `feeder` for a payout block that refills spendable outputs. */
export interface PlannedBlock {
  era: EraName | 'feeder';
  block: BuiltBlock;
}

/** Outputs one feeder transaction creates (a payout of the size of mainnet 347499's 1,011-output transaction). */
export const FEEDER_OUTPUTS = 1000;
/**
 * Payout transactions in one block: each P2PKH output counts one signature operation, and zcashd's
 * MAX_BLOCK_SIGOPS is 20,000 a block.
 */
export const MAX_PAYOUTS_PER_BLOCK = 15;

/**
 * The blocks of `segments` on `generator`'s chain, in order: each era cycles through its real
 * blocks' shapes. The first `nu63` block comes after the generator activates NU6.2 (one
 * coinbase-only `feeder` block) and NU6.3; no other era may follow it. Where a block needs more
 * transparent inputs than there are spendable outputs (an input-heavy block such as 106598's
 * 9,249), payout blocks come first: one-input transactions of 1,000 outputs, as mining pools'
 * payouts are (`feeder` blocks); before coinbases mature (regtest's first 100 blocks) they are
 * coinbase-only.
 */
export function* eraChainBlocks(
  generator: EraChainGenerator,
  segments: readonly EraSegment[],
  samples: Record<EraName, SampledBlock[]> = eraSamples(),
): Generator<PlannedBlock> {
  const next = new Map<EraName, number>();
  for (const { era, blocks } of segments) {
    const list = samples[era];
    if (list.length === 0) throw new RangeError(`no real block samples for era ${era}`);
    if (era === 'nu63' && !generator.nu63Activations && blocks > 0) yield { era: 'feeder', block: generator.activateNu63() };
    if (era !== 'nu63' && generator.nu63Activations)
      throw new RangeError(`era ${era} after NU6.3: its blocks may add to the Orchard pool, which NU6.3 forbids (ZIP 258)`);
    for (let i = 0; i < blocks; i++) {
      const k = next.get(era) ?? 0;
      next.set(era, k + 1);
      const shape = list[k % list.length]!.shape;
      const needed = shape.reduce((s, t) => s + t.inputs, 0);
      while (generator.spendableCount < needed) {
        const deficit = needed - generator.spendableCount;
        const payouts = Math.min(generator.spendableCount, Math.ceil(deficit / FEEDER_OUTPUTS), MAX_PAYOUTS_PER_BLOCK);
        yield { era: 'feeder', block: generator.next(Array.from({ length: payouts }, () => ({ inputs: 1, outputs: FEEDER_OUTPUTS }))) };
      }
      yield { era, block: generator.next(shape) };
    }
  }
}
