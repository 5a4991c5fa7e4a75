/**
 * Block-hash checkpoints zcashd v6.12.2 hard-codes (src/chainparams.cpp `checkpointData` and
 * each upgrade's `hashActivationBlock`), in RPC (GetHex, byte-reversed) form.
 *
 * How zcashd uses them:
 *  - checkpointData: ContextualCheckBlockHeader rejects any header below the height of the
 *    last checkpoint block already in its index ("forked chain older than last checkpoint"),
 *    and blocks below it skip script checks. Hash equality at a checkpoint height follows from
 *    that for a chain that is synced past it; an importer reading headers in order enforces
 *    it directly (header-rules.ts `checkCheckpoint`).
 *  - hashActivationBlock: once the chain has the minimum chain work, a different block at an
 *    upgrade's activation height makes zcashd shut down; mainnet and testnet pin Overwinter
 *    through NU5.
 * Regtest's only checkpoint entry in zcashd (height 0, 0f9188f1…) is not the regtest genesis
 * hash, so no header can ever match it and zcashd never finds it in its index: it has no
 * effect and is left out here.
 */
import type { NetworkName, NetworkUpgrade } from './network.js';

export interface Checkpoint {
  height: number;
  /** Block hash as RPC prints it. */
  hash: string;
}

export const BLOCK_CHECKPOINTS: Readonly<Record<NetworkName, readonly Checkpoint[]>> = {
  mainnet: [
    { height: 0, hash: '00040fe8ec8471911baa1db1266ea15dd06b4a8a5c453883c000b031973dce08' },
    { height: 2500, hash: '00000006dc968f600be11a86cbfbf7feb61c7577f45caced2e82b6d261d19744' },
    { height: 15000, hash: '00000000b6bc56656812a5b8dcad69d6ad4446dec23b5ec456c18641fb5381ba' },
    { height: 67500, hash: '000000006b366d2c1649a6ebb4787ac2b39c422f451880bc922e3a6fbd723616' },
    { height: 100000, hash: '000000001c5c82cd6baccfc0879e3830fd50d5ede17fa2c37a9a253c610eb285' },
    { height: 133337, hash: '0000000002776ccfaf06cc19857accf3e20c01965282f916b8a886e3e4a05be9' },
    { height: 180000, hash: '000000001205b742eac4a1b3959635bdf8aeada078d6a996df89740f7b54351d' },
    { height: 222222, hash: '000000000cafb9e56445a6cabc8057b57ee6fcc709e7adbfa195e5c7fac61343' },
    { height: 270000, hash: '00000000025c1cfa0258e33ab050aaa9338a3d4aaa3eb41defefc887779a9729' },
    { height: 304600, hash: '00000000028324e022a45014c4a4dc51e95d41e6bceb6ad554c5b65d5cea3ea5' },
    { height: 410100, hash: '0000000002c565958f783a24a4ac17cde898ff525e75ed9baf66861b0b9fcada' },
    { height: 497000, hash: '0000000000abd333f0acca6ffdf78a167699686d6a7d25c33fca5f295061ffff' },
    { height: 525000, hash: '0000000001a36c500378be8862d9bf1bea8f1616da6e155971b608139cc7e39b' },
    { height: 650000, hash: '0000000000a0a3fbbd739fb4fcbbfefff44efffc2064ca69a59d5284a2da26e2' },
    { height: 800000, hash: '00000000013f1f4e5634e896ebdbe63dec115547c1480de0d83c64426f913c27' },
    { height: 1000000, hash: '000000000062eff9ae053020017bfef24e521a2704c5ec9ead2a4608ac70fc7a' },
    { height: 1200000, hash: '0000000000347d5011108fdcf667c93e622e8635c94e586556898e41db18d192' },
    { height: 1400000, hash: '0000000001155ecec0ad3924d47ad476c0a5ed7527b8776f53cbda1a780b9f76' },
    { height: 1600000, hash: '0000000000aae69fb228f90e77f34c24b7920667eaca726c3a3939536f03dcfc' },
    { height: 1860000, hash: '000000000043a968c78af5fb8133e00e6fe340051c19dd969e53ab62bf3dc22a' },
    { height: 2000000, hash: '00000000010accaf2f87934765dc2e0bf4823a2b1ae2c1395b334acfce52ad68' },
    { height: 2200000, hash: '0000000001a0139c4c4d0e8f68cc562227c6003f4b1b640a3d921aeb8c3d2e3d' },
    { height: 2400000, hash: '0000000000294d1c8d87a1b6566d302aa983691bc3cab0583a245389bbb9d285' },
    { height: 2600000, hash: '0000000000b5ad92fcec0069d590f674d05ec7d96b1ff727863ea390950c4e49' },
    { height: 2800000, hash: '00000000011a226fb25d778d65b055605a82da016989b7788e0ce83c4f8d64f7' },
    { height: 3000000, hash: '0000000000573729e4db33678233e5dc0cc721c9c09977c64dcaa3f6344de8e9' },
  ],
  testnet: [
    { height: 0, hash: '05a60a92d99d85997cce3b87616c089f6124d7342af37106edc76126334a2c38' },
    { height: 38000, hash: '001e9a2d2e2892b88e9998cf7b079b41d59dd085423a921fe8386cecc42287b8' },
  ],
  regtest: [],
};

/**
 * hashActivationBlock per upgrade (RPC form); upgrades without one are absent. Up to NU5 they are
 * zcashd's; NU6.3's, which no zcashd release pins, are the hashes of the real activation blocks
 * (test-vectors nu6.3/). NU6.2's is absent: no source at hand confirms it.
 */
export const ACTIVATION_BLOCK_HASHES: Readonly<Record<NetworkName, Partial<Record<NetworkUpgrade, string>>>> = {
  mainnet: {
    Overwinter: '0000000003761c0d0c3974b54bdb425613bbb1eaadd6e70b764de82f195ea243',
    Sapling: '00000000025a57200d898ac7f21e26bf29028bbe96ec46e05b2c17cc9db9e4f3',
    Blossom: '00000000020bebb33c1b34b67a982a328ab212a206dacbe561a7cc94aab3e9bb',
    Heartwood: '0000000000aad1c8698964a93c35ecf8b4d05e848de9e2fe7606067139be5643',
    Canopy: '00000000002038016f976744c369dce7419fca30e7171dfac703af5e5f7ad1d4',
    NU5: '0000000000d723156d9b65ffcf4984da7a19675ed7e2f06d9e5d5188af087bf8',
    'NU6.3': '00000000001a8b54bbde4e8996373417a6b33ee2bd984bcf02882e5d8128d761',
  },
  testnet: {
    Overwinter: '0000257c4331b098045023fcfbfa2474681f4564ab483f84e4e1ad078e4acf44',
    Sapling: '000420e7fcc3a49d729479fb0b560dd7b8617b178a08e9e389620a9d1dd6361a',
    Blossom: '00367515ef2e781b8c9358b443b6329572599edd02c59e8af67db9785122f298',
    Heartwood: '05688d8a0e9ff7c04f6f05e6d695dc5ab43b9c4803342d77ae360b2b27d2468e',
    Canopy: '01a4d7c6aada30c87762c1bf33fff5df7266b1fd7616bfdb5227fa59bd79e7a2',
    NU5: '0006d75c60b3093d1b671ff7da11c99ea535df9927c02e6ed9eb898605eb7381',
    'NU6.3': '000003943e1a2c60c17b69ed4d448ea9296019a247f1134b507917941957fccd',
  },
  regtest: {},
};

const byHeight = new Map<NetworkName, Map<number, string>>();

/** The checkpoint hash pinned at `height` (RPC form), or undefined. */
export function checkpointAt(network: NetworkName, height: number): string | undefined {
  let map = byHeight.get(network);
  if (!map) {
    map = new Map(BLOCK_CHECKPOINTS[network].map((c) => [c.height, c.hash]));
    byHeight.set(network, map);
  }
  return map.get(height);
}

/** Checkpoints::GetTotalBlocksEstimate: the height of the last checkpoint (0 if none). */
export function lastCheckpointHeight(network: NetworkName): number {
  const list = BLOCK_CHECKPOINTS[network];
  return list.length === 0 ? 0 : list[list.length - 1]!.height;
}

/**
 * Checkpoints::GetLastCheckpoint for a node whose best header is at `bestHeight`: the highest
 * checkpoint it holds (headers are checked against every checkpoint, so one at or below the
 * best height is in the index), or undefined.
 */
export function lastCheckpointReached(network: NetworkName, bestHeight: number): number | undefined {
  let last: number | undefined;
  for (const c of BLOCK_CHECKPOINTS[network]) if (c.height <= bestHeight) last = c.height;
  return last;
}
