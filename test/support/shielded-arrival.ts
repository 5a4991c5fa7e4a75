/**
 * A shielded regtest chain whose blocks arrive out of the active chain's order: base 1..130 with
 * shielding spends of coinbase outputs from 101, a branch from 115 that takes over at 133, then
 * the base again to 140 (two reorganizations across Sapling blocks). Shared by the store tests
 * that import it with group commit (group-commit, no-address-index).
 */
import { regtestGenesis, type BuiltBlock } from '../../test-vectors/regtest-builder.js';
import { ShieldedChainBuilder } from '../../test-vectors/regtest-shielded.js';

export function shieldedArrivalOrder(): { blocks: BuiltBlock[]; base: BuiltBlock[]; expectedTip: BuiltBlock } {
  const genesis = regtestGenesis();
  const builder = new ShieldedChainBuilder(genesis);
  const shields = (h: number): number => (h > 100 && h % 3 === 0 ? 2 : 0);
  const base = [genesis, ...builder.chain(genesis, 130, 'base', shields)];
  const branch = builder.chain(base[115]!, 18, 'branch', (h) => (h % 4 === 0 ? 1 : 0));
  const baseMore = builder.chain(base[130]!, 10, 'base', shields);
  return { blocks: [...base, ...branch, ...baseMore], base, expectedTip: baseMore.at(-1)! };
}
