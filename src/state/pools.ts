/**
 * The shielded pools with a note-commitment tree of 2^32 leaves and 2^16-leaf subtrees, as data:
 * one entry per pool says what the rest of the code needs to know of it (its key byte in the
 * store, the upgrade it starts at, its tree's hasher and serialization, how zcashd prints its
 * roots, and how a transaction yields its nullifiers, anchors, note commitments and value
 * balance). The state transition, the shielded requirements, the records, the store's keys,
 * the block views, `z_gettreestate`, `z_getsubtreesbyindex`, checkpoint starts and the
 * renderers loop over the registry, so a new pool is one entry here (plus its upgrade in
 * `chain/upgrades.ts` and its transaction JSON in `render/tx.ts`).
 *
 * Sapling, Orchard and NU6.3's Ironwood are the entries. Sprout is not one: its tree has another depth, no subtrees, and its anchors are checked
 * against the intermediate trees of a transaction's own JoinSplits (apply-block.ts).
 */
import { isUpgradeActive, type NetworkParams } from '../chain/network.js';
import type { NetworkUpgrade } from '../chain/upgrades.js';
import type { TransactionData } from '../codec/tx/types.js';
import { defaultOrchardHasher } from '../crypto/orchard/index.js';
import { defaultSaplingHasher } from '../crypto/sapling/index.js';
import type { MerkleHasher } from './trees/hasher.js';
import type { ParentsLayout } from './trees/tree-state.js';

/** The bundles a pool's value balance is read from (a decoded transaction's data satisfies it). */
export interface PoolBundles {
  readonly sapling: { readonly valueBalance: number } | null;
  readonly orchard: { readonly valueBalance: number } | null;
  /** v6 transactions only (absent in the formats before). */
  readonly ironwood?: { readonly valueBalance: number } | null;
}

/**
 * One step of a transaction's shielded requirements, in zcashd's order: a nullifier it reveals
 * or an anchor it uses; `index` names the part (spend or action) for the message. Returning
 * false stops the walk.
 */
export type RequirementVisitor = (kind: 'nullifier' | 'anchor', value: Uint8Array, index: number) => boolean;

export interface ShieldedPoolEntry {
  /** The pool's name in JSON (`valuePools`, `trees`, z_gettreestate) and in rule names. */
  readonly id: string;
  /** Its name in messages ("Sapling spend 0 …"). */
  readonly name: string;
  /** Its byte in store keys and records; never reused. */
  readonly keyByte: number;
  /** The network upgrade that creates the pool (before it, the tree is empty and not printed). */
  readonly upgrade: NetworkUpgrade;
  readonly treeDepth: number;
  /** Builds the tree's hash function (called once, on first use). */
  readonly hasher: () => MerkleHasher;
  /** zcashd's `finalState` layout for this pool's frontier. */
  readonly treeStateLayout: ParentsLayout;
  /** zcashd prints the pool's roots byte-reversed (`GetHex`) or as they are (`HexStr`). */
  readonly rootsPrinted: 'reversed' | 'raw';
  /** Calls `visit` for every nullifier and anchor of `tx` in CheckShieldedRequirements' order. */
  readonly requirements: (tx: TransactionData, visit: RequirementVisitor) => void;
  /** What a requirement's `index` names in a message ("Sapling spend 2", "the Orchard bundle"). */
  readonly part: (kind: 'nullifier' | 'anchor', index: number) => string;
  /** Appends the nullifiers the transaction reveals to `out`, in order. */
  readonly nullifiers: (tx: TransactionData, out: Uint8Array[]) => void;
  /** Appends the transaction's note commitments (the tree's leaves) to `leaves`, in order. */
  readonly commitments: (tx: TransactionData, leaves: Uint8Array[]) => void;
  /** The transaction's value balance for the pool (what leaves the pool), zatoshis. */
  readonly valueBalance: (tx: PoolBundles) => number;
  /**
   * Absent: a pool zcashd v6.12.2 has, listed wherever zcashd lists it. 'extension': a pool that
   * came after zcashd, whose members extend zcashd's replies in its style: its value pool is
   * listed after zcashd's (after the lockbox) and, like its `trees` and `z_gettreestate`
   * members, only from the block that activates it; a network without its upgrade (the 6.12.2
   * profile's) does not offer it at all.
   */
  readonly listing?: 'extension';
}

const SAPLING = {
  id: 'sapling',
  name: 'Sapling',
  keyByte: 1,
  upgrade: 'Sapling',
  treeDepth: 32,
  hasher: () => defaultSaplingHasher().hasher,
  treeStateLayout: 'trimmed',
  rootsPrinted: 'reversed',
  requirements: (tx, visit) => {
    const spends = tx.sapling?.spends;
    if (!spends) return;
    for (let i = 0; i < spends.length; i++) {
      if (!visit('nullifier', spends[i]!.nullifier, i) || !visit('anchor', spends[i]!.anchor, i)) return;
    }
  },
  part: (_kind, index) => `Sapling spend ${index}`,
  nullifiers: (tx, out) => {
    const spends = tx.sapling?.spends;
    if (spends) for (let i = 0; i < spends.length; i++) out.push(spends[i]!.nullifier);
  },
  commitments: (tx, leaves) => {
    const outputs = tx.sapling?.outputs;
    if (outputs) for (let i = 0; i < outputs.length; i++) leaves.push(outputs[i]!.cmu);
  },
  valueBalance: (tx) => tx.sapling?.valueBalance ?? 0,
} as const satisfies ShieldedPoolEntry;

const ORCHARD = {
  id: 'orchard',
  name: 'Orchard',
  keyByte: 2,
  upgrade: 'NU5',
  treeDepth: 32,
  hasher: () => defaultOrchardHasher().hasher,
  treeStateLayout: 'padded',
  // Since zcashd v5.3.0 (-legacyorchardroot restores the reversed form).
  rootsPrinted: 'raw',
  requirements: (tx, visit) => {
    const bundle = tx.orchard;
    if (!bundle) return;
    for (let i = 0; i < bundle.actions.length; i++) if (!visit('nullifier', bundle.actions[i]!.nullifier, i)) return;
    visit('anchor', bundle.anchor, 0);
  },
  part: (kind, index) => (kind === 'anchor' ? 'the Orchard bundle' : `Orchard action ${index}`),
  nullifiers: (tx, out) => {
    const actions = tx.orchard?.actions;
    if (actions) for (let i = 0; i < actions.length; i++) out.push(actions[i]!.nullifier);
  },
  commitments: (tx, leaves) => {
    const actions = tx.orchard?.actions;
    if (actions) for (let i = 0; i < actions.length; i++) leaves.push(actions[i]!.cmx);
  },
  valueBalance: (tx) => tx.orchard?.valueBalance ?? 0,
} as const satisfies ShieldedPoolEntry;

/**
 * NU6.3's pool (ZIP 258): Orchard's actions, tree (Sinsemilla, depth 32, empty at activation)
 * and anchor rule, in a v6 transaction's Ironwood component. No zcashd release has it, so its
 * roots print as zcashd prints Orchard's, and its JSON members are extensions.
 */
const IRONWOOD = {
  id: 'ironwood',
  name: 'Ironwood',
  keyByte: 3,
  upgrade: 'NU6.3',
  treeDepth: 32,
  hasher: () => defaultOrchardHasher().hasher,
  treeStateLayout: 'padded',
  rootsPrinted: 'raw',
  requirements: (tx, visit) => {
    const bundle = tx.ironwood;
    if (!bundle) return;
    for (let i = 0; i < bundle.actions.length; i++) if (!visit('nullifier', bundle.actions[i]!.nullifier, i)) return;
    visit('anchor', bundle.anchor, 0);
  },
  part: (kind, index) => (kind === 'anchor' ? 'the Ironwood bundle' : `Ironwood action ${index}`),
  nullifiers: (tx, out) => {
    const actions = tx.ironwood?.actions;
    if (actions) for (let i = 0; i < actions.length; i++) out.push(actions[i]!.nullifier);
  },
  commitments: (tx, leaves) => {
    const actions = tx.ironwood?.actions;
    if (actions) for (let i = 0; i < actions.length; i++) leaves.push(actions[i]!.cmx);
  },
  valueBalance: (tx) => tx.ironwood?.valueBalance ?? 0,
  listing: 'extension',
} as const satisfies ShieldedPoolEntry;

/** The pools this zecrpc knows, in zcashd's order (their trees, value pools and JSON members). */
const BUILT_IN = [SAPLING, ORCHARD, IRONWOOD] as const;

/** A registered pool's id: the type every per-pool record and key is indexed by. */
export type ShieldedPoolId = (typeof BUILT_IN)[number]['id'];

/** The pools zcashd v6.12.2 has: present in every per-pool value this zecrpc makes or reads. */
export type ZcashdPoolId = Exclude<(typeof BUILT_IN)[number], { listing: 'extension' }>['id'];

/**
 * The pools after zcashd's (Ironwood): optional in per-pool values, since values made before
 * the pool existed (records, checkpoint files, views) lack them, and absent means nothing
 * entered the pool.
 */
export type ExtensionPoolId = Exclude<ShieldedPoolId, ZcashdPoolId>;

/** One value per registered pool: required for zcashd's pools, optional for the extension pools. */
export type PerPool<T> = Record<ZcashdPoolId, T> & Partial<Record<ExtensionPoolId, T>>;

/** Sprout or a registered pool: the trees, the nullifier sets, the anchors. */
export type TreePool = 'sprout' | ShieldedPoolId;

/** The registered pools in order; the built-in ones, plus any a test registers. */
export const SHIELDED_POOL_ENTRIES: readonly ShieldedPoolEntry[] = [...BUILT_IN];

/** Sprout's key byte (the registry's entries take the others). */
export const SPROUT_KEY_BYTE = 0;

/** Changes whenever a pool is registered or removed, so lists derived from the registry are rebuilt. */
let registryVersion = 0;

/**
 * A value derived from the registry, built once and again only after the registry changed: the
 * state transition asks for these lists on every block.
 */
export function derivedFromRegistry<T>(build: () => T): () => T {
  let version = -1;
  let value: T;
  return () => {
    if (version !== registryVersion) {
      value = build();
      version = registryVersion;
    }
    return value;
  };
}

/**
 * Adds a pool after the built-in ones and returns what removes it again. The built-in pools are
 * the constant list above; registering is for tests that show a pool flowing through the code
 * without editing it.
 */
export function registerShieldedPool(entry: ShieldedPoolEntry): () => void {
  const list = SHIELDED_POOL_ENTRIES as ShieldedPoolEntry[];
  if (entry.keyByte === SPROUT_KEY_BYTE || list.some((p) => p.id === entry.id || p.keyByte === entry.keyByte) || entry.id === 'sprout')
    throw new Error(`shielded pool ${entry.id} (key byte ${entry.keyByte}) is already registered`);
  list.push(entry);
  registryVersion++;
  return () => {
    const at = list.indexOf(entry);
    if (at >= 0) list.splice(at, 1);
    registryVersion++;
  };
}

/** The registered pool with id `id`, or undefined. */
export function shieldedPool(id: string): ShieldedPoolEntry | undefined {
  return SHIELDED_POOL_ENTRIES.find((p) => p.id === id);
}

/** The key byte of Sprout or a registered pool. */
export function poolKeyByte(pool: TreePool): number {
  if (pool === 'sprout') return SPROUT_KEY_BYTE;
  const entry = shieldedPool(pool);
  if (!entry) throw new Error(`unknown shielded pool ${pool}`);
  return entry.keyByte;
}

/** Sprout or the registered pool whose key byte is `b`, or undefined. */
export function poolOfKeyByte(b: number): TreePool | undefined {
  if (b === SPROUT_KEY_BYTE) return 'sprout';
  return SHIELDED_POOL_ENTRIES.find((p) => p.keyByte === b)?.id as ShieldedPoolId | undefined;
}

/** Every tree's pool in zcashd's order: Sprout, then the registered pools. */
export const treePools: () => readonly TreePool[] = derivedFromRegistry(() =>
  Object.freeze(['sprout' as const, ...SHIELDED_POOL_ENTRIES.map((p) => p.id as ShieldedPoolId)]),
);

/** Each registered pool with the names of its members in per-pool records (`saplingRoot`, `saplingSize`, `saplingTreeSize`). */
export const poolMembers: () => readonly { entry: ShieldedPoolEntry; id: ShieldedPoolId; root: string; size: string; treeSize: string }[] =
  derivedFromRegistry(() =>
    SHIELDED_POOL_ENTRIES.map((entry) => ({ entry, id: entry.id as ShieldedPoolId, ...poolMemberNames(entry.id) })),
  );

/** Member names of one pool in per-pool records and views. */
export interface PoolMemberNames {
  root: string;
  size: string;
  treeSize: string;
}

const memberNames = new Map<string, PoolMemberNames>();

/**
 * `pool`'s member names (`saplingRoot`, `saplingSize`, `saplingTreeSize`), made once per pool: a
 * name built by concatenation on every read must be looked up in V8's string table each time.
 */
export function poolMemberNames(pool: string): PoolMemberNames {
  let names = memberNames.get(pool);
  if (!names) memberNames.set(pool, (names = { root: `${pool}Root`, size: `${pool}Size`, treeSize: `${pool}TreeSize` }));
  return names;
}

/**
 * Whether `entry`'s members are printed for a block at `height` (or a chain whose tip is there):
 * zcashd's pools always; an extension pool from its upgrade's activation on (never where the
 * upgrade is not configured, as under the 6.12.2 profile).
 */
export function poolListedAt(entry: ShieldedPoolEntry, network: NetworkParams, height: number): boolean {
  return entry.listing !== 'extension' || isUpgradeActive(network, entry.upgrade, height);
}

/** Whether the network offers `entry` at all (`z_getsubtreesbyindex`'s pools): an extension pool only where its upgrade is configured. */
export function poolOffered(entry: ShieldedPoolEntry, network: NetworkParams): boolean {
  return entry.listing !== 'extension' || network.activationHeights[entry.upgrade] !== null;
}
