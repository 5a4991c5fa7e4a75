/**
 * What the two nodes say they are, checked before their replies are compared: two nodes of
 * different networks differ everywhere (every hash, the genesis block) and the comparison says
 * nothing about zecrpc; a zecrpc reference running another compatibility profile than the one
 * the target is compared under answers `upgrades` (and what its parser accepts) differently.
 * Each mismatch is a warning, not a refusal: the comparison still runs.
 */
import { MAINNET, TESTNET, type NetworkParams } from '../chain/network.js';
import { COMPAT_PROFILES, type CompatProfile } from '../compat/profiles.js';
import type { ReferenceKind } from './compare-reply.js';
import type { Endpoint } from './endpoint.js';

/** getblockchaininfo's `chain` and the names in its `upgrades`, or null when it did not answer them. */
export interface ChainIdentity {
  chain: string;
  upgrades: string[];
}

export async function chainIdentity(ep: Endpoint): Promise<ChainIdentity | null> {
  try {
    const reply = await ep.send(
      Buffer.from('{"jsonrpc":"1.0","id":"compare","method":"getblockchaininfo","params":[]}'),
      'getblockchaininfo',
    );
    const r = (JSON.parse(reply.body.toString('utf8')) as { result?: { chain?: unknown; upgrades?: unknown } }).result;
    if (typeof r?.chain !== 'string') return null;
    const upgrades =
      r.upgrades !== null && typeof r.upgrades === 'object'
        ? Object.values(r.upgrades as Record<string, { name?: unknown }>)
            .map((u) => u?.name)
            .filter((n): n is string => typeof n === 'string')
        : [];
    return { chain: r.chain, upgrades };
  } catch {
    // A node without getblockchaininfo (or one that fails it) is compared without this check.
    return null;
  }
}

/** getblockchaininfo's `chain` names of the networks whose upgrade schedule is fixed (regtest's is set by -nuparams). */
const FIXED_SCHEDULE: Record<string, NetworkParams> = { main: MAINNET, test: TESTNET };

/** The upgrades a node of `profile` lists on `network`: those it knows that have an activation height. */
function listedUnder(network: NetworkParams, profile: CompatProfile): string[] {
  return network.upgrades.filter((u) => u.activationHeight !== null && profile.upgrades.includes(u.name)).map((u) => u.name);
}

/** The profiles whose getblockchaininfo would list exactly these upgrades (null: the network's schedule is not fixed). */
function profilesListing(identity: ChainIdentity): CompatProfile[] | null {
  const network = FIXED_SCHEDULE[identity.chain];
  if (!network) return null;
  const listed = [...identity.upgrades].sort().join(',');
  return COMPAT_PROFILES.filter((p) => listedUnder(network, p).sort().join(',') === listed);
}

/**
 * The warnings for two nodes' identities: different `chain`s, and a zecrpc reference whose
 * `upgrades` are not what `profile` lists (it runs another profile). On regtest, whose schedule
 * -nuparams sets, only an upgrade the profile does not know at all tells.
 */
export function identityWarnings(
  reference: ChainIdentity | null,
  target: ChainIdentity | null,
  referenceKind: ReferenceKind,
  profile: CompatProfile,
): string[] {
  const warnings: string[] = [];
  if (reference && target && reference.chain !== target.chain) {
    warnings.push(
      `the nodes are on different networks (reference chain '${reference.chain}', target chain '${target.chain}'): ` +
        'every block and hash will differ; compare nodes of one network (--network with --target-datadir)',
    );
  }
  if (!reference || referenceKind !== 'zecrpc') return warnings;
  const matching = profilesListing(reference);
  const unknown = reference.upgrades.filter((u) => !(profile.upgrades as readonly string[]).includes(u));
  const otherProfile = matching ? !matching.includes(profile) : unknown.length > 0;
  if (otherProfile) {
    const which =
      matching === null || matching.length === 0
        ? 'a profile this zecrpc does not have'
        : `profile ${matching.map((p) => p.name).join(' or ')}`;
    warnings.push(
      `the reference zecrpc lists the upgrades of ${which} (${reference.upgrades.join(', ')}), not of --compat ${profile.name}: ` +
        'upgrades and transaction parsing will differ; give the target the same -compat',
    );
  }
  return warnings;
}
