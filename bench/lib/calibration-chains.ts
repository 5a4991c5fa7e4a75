/**
 * The chains the import model is fitted on (bench/import-eras.ts): each leans on one unit of
 * `UNITS` (bench/lib/import-model.ts), so the fit can tell their costs apart, and the era chains
 * rebuild mainnet's real block shapes (test-vectors/era-shapes.ts), so the fit is checked on
 * what it is used for. Every chain starts at genesis: 100 coinbase-only blocks (regtest's coinbase
 * maturity), then payout blocks where the measured blocks need spendable outputs, all counted.
 */
import { type EraChainGenerator, type BlockShape } from '../../test-vectors/era-chain.js';
import { eraChainBlocks, FEEDER_OUTPUTS, MAX_PAYOUTS_PER_BLOCK, type EraName, type PlannedBlock } from '../../test-vectors/era-shapes.js';

export interface CalibrationChain {
  label: string;
  /** Real shapes of one era, when the chain is one. */
  era?: EraName;
  scriptSigBytes?: number;
  /** The blocks after genesis. */
  blocks: (generator: EraChainGenerator) => Iterable<PlannedBlock>;
}

const repeat = (shape: BlockShape, count: number) =>
  function* (generator: EraChainGenerator): Iterable<PlannedBlock> {
    for (let i = 0; i < 100; i++) yield { era: 'feeder', block: generator.next([]) };
    const needed = shape.reduce((s, t) => s + t.inputs, 0);
    for (let i = 0; i < count; i++) {
      // Payouts ahead of need, one per spendable output, until the block can be funded.
      while (generator.spendableCount < needed) {
        const payouts = Math.min(generator.spendableCount, MAX_PAYOUTS_PER_BLOCK);
        yield { era: 'feeder', block: generator.next(Array.from({ length: payouts }, () => ({ inputs: 1, outputs: FEEDER_OUTPUTS }))) };
      }
      yield { era: 'feeder', block: generator.next(shape) };
    }
  };

const ofEra = (era: EraName, count: number) =>
  function* (generator: EraChainGenerator): Iterable<PlannedBlock> {
    for (let i = 0; i < 100; i++) yield { era: 'feeder', block: generator.next([]) };
    yield* eraChainBlocks(generator, [{ era, blocks: count }]);
  };

/** `n` measured blocks a chain (the spam chain: n / 10, each 1.9 MB). */
export function calibrationChains(n: number): CalibrationChain[] {
  const tx = (
    inputs: number,
    outputs: number,
    more: Partial<Record<'saplingSpends' | 'saplingOutputs' | 'orchardActions', number>> = {},
  ) => ({
    inputs,
    outputs,
    ...more,
  });
  return [
    { label: 'coinbase only', blocks: repeat([], n) },
    { label: 'coinbase only, 4 times as long', blocks: repeat([], 4 * n) },
    {
      label: 'inputs: 4 tx × 40 in, 1 out',
      blocks: repeat(
        Array.from({ length: 4 }, () => tx(40, 1)),
        n,
      ),
    },
    {
      label: 'inputs, 1,000-byte scriptSigs',
      scriptSigBytes: 1000,
      blocks: repeat(
        Array.from({ length: 4 }, () => tx(40, 1)),
        n,
      ),
    },
    {
      label: 'outputs: 2 tx × 1 in, 400 out',
      blocks: repeat(
        Array.from({ length: 2 }, () => tx(1, 400)),
        n,
      ),
    },
    {
      label: 'transactions: 40 tx × 1 in, 1 out',
      blocks: repeat(
        Array.from({ length: 40 }, () => tx(1, 1)),
        n,
      ),
    },
    {
      label: 'Sapling outputs: 2 tx × 150',
      blocks: repeat(
        Array.from({ length: 2 }, () => tx(1, 0, { saplingOutputs: 150 })),
        n,
      ),
    },
    {
      label: 'Sapling spends: 4 tx × 25 spends, 1 output',
      blocks: repeat(
        Array.from({ length: 4 }, () => tx(0, 0, { saplingSpends: 25, saplingOutputs: 1 })),
        n,
      ),
    },
    {
      label: 'Orchard actions: 3 tx × 20',
      blocks: repeat(
        Array.from({ length: 3 }, () => tx(0, 0, { orchardActions: 20 })),
        n,
      ),
    },
    { label: 'era sprout (real shapes)', era: 'sprout', blocks: ofEra('sprout', n) },
    { label: 'era sapling (real shapes)', era: 'sapling', blocks: ofEra('sapling', n) },
    { label: 'era spam (1.9 MB Sapling-output blocks)', era: 'spam', blocks: ofEra('spam', Math.max(3, Math.round(n / 10))) },
    { label: 'era nu5 (real shapes)', era: 'nu5', blocks: ofEra('nu5', n) },
    { label: 'era nu63 (real shapes)', era: 'nu63', blocks: ofEra('nu63', n) },
  ];
}
