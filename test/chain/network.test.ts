// Regtest upgrade schedules, as zcashd's -nuparams sets them.
import { describe, expect, it } from 'vitest';
import { branchIdAt, REGTEST, regtestWithActivations } from '../../src/chain/network.js';

describe('regtestWithActivations', () => {
  it('schedules the given upgrades and leaves the rest inactive', () => {
    const net = regtestWithActivations({ Overwinter: 1, Sapling: 1, Blossom: 5, Heartwood: 10 });
    expect(net.activationHeights).toMatchObject({ Overwinter: 1, Sapling: 1, Blossom: 5, Heartwood: 10, Canopy: null, NU5: null });
    expect([0, 1, 4, 5, 10, 1000].map((h) => branchIdAt(net, h).toString(16))).toEqual([
      '0',
      '76b809bb',
      '76b809bb',
      '2bb40e60',
      'f5b9230b',
      'f5b9230b',
    ]);
    expect(net.upgrades.find((u) => u.name === 'Heartwood')!.activationHeight).toBe(10);
    // Everything else is regtest's; the shared REGTEST object is untouched.
    expect([net.genesisHash, net.magic]).toEqual([REGTEST.genesisHash, REGTEST.magic]);
    expect(REGTEST.activationHeights.Sapling).toBeNull();
  });

  it('refuses an upgrade scheduled without, or before, the one it follows', () => {
    expect(() => regtestWithActivations({ Sapling: 1 })).toThrow('Sapling activates at 1 but Overwinter activates never');
    expect(() => regtestWithActivations({ Overwinter: 5, Sapling: 2 })).toThrow('Sapling activates at 2 but Overwinter activates at 5');
    expect(() => regtestWithActivations({ Overwinter: 0 })).toThrow('Overwinter activation height 0 is not a positive integer');
  });
});
