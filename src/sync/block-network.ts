/**
 * Which network a block whose parent is missing belongs to, when its header says it is another
 * network's: a block of another network never finds its parent in the store, and saying which
 * network it is of points to the fix (the network option) where "missing parent" would not.
 */
import { ACTIVATION_BLOCK_HASHES, BLOCK_CHECKPOINTS } from '../chain/checkpoints.js';
import { NETWORK_NAMES, networkParams, type NetworkName, type NetworkParams } from '../chain/network.js';
import { blockHeaderHash, decodeBlockHeader, type BlockHeader } from '../codec/block.js';
import { toHexReversed } from '../codec/hex.js';

/** Heights of the blocks each network pins by hash: checkpoints and upgrade activation blocks. */
function pinnedHeight(network: NetworkName, hash: string): number | null {
  const checkpoint = BLOCK_CHECKPOINTS[network].find((c) => c.hash === hash);
  if (checkpoint) return checkpoint.height;
  const params = networkParams(network);
  for (const [upgrade, h] of Object.entries(ACTIVATION_BLOCK_HASHES[network])) {
    const height = params.upgrades.find((u) => u.name === upgrade)?.activationHeight;
    if (h === hash && height !== undefined) return height;
  }
  return null;
}

/** Another network a block belongs to, and what in its header shows it. */
export interface OtherNetwork {
  /** One network, or two when only the Equihash parameters tell (mainnet and testnet share them). */
  networks: NetworkName[];
  evidence: string;
}

/**
 * Whether the block `bytes` belongs to a network other than `store`'s, read from its header (its
 * parent being another network's genesis block, its hash or its parent's being one another network
 * pins, or its Equihash solution's size); null when the header shows nothing of the kind.
 */
export function otherNetworkOf(bytes: Uint8Array, store: NetworkParams): OtherNetwork | null {
  let header: BlockHeader;
  try {
    header = decodeBlockHeader(bytes);
  } catch {
    return null;
  }
  const others = NETWORK_NAMES.filter((n) => n !== store.name);
  const hash = toHexReversed(blockHeaderHash(header));
  const parent = toHexReversed(header.prevHash);
  for (const n of others) {
    if (networkParams(n).genesisHash === parent) return { networks: [n], evidence: `its parent is ${n}'s genesis block` };
    const own = pinnedHeight(n, hash);
    if (own !== null) return { networks: [n], evidence: `it is ${n}'s block ${own}` };
    const parentHeight = pinnedHeight(n, parent);
    if (parentHeight !== null) return { networks: [n], evidence: `its parent is ${n}'s block ${parentHeight}` };
  }
  if (header.solution.length !== store.solutionSize) {
    const networks = others.filter((n) => networkParams(n).solutionSize === header.solution.length);
    if (networks.length > 0) {
      return {
        networks,
        evidence: `its Equihash solution is ${header.solution.length} bytes, ${store.name}'s are ${store.solutionSize}`,
      };
    }
  }
  return null;
}

/** The options that select the networks named, as `zecrpc` and zcashd take them. */
export function networkOptions(networks: readonly NetworkName[]): string {
  return networks.map((n) => (n === 'mainnet' ? 'no network option (mainnet)' : `-${n}`)).join(' or ');
}
