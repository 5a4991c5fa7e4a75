/**
 * What the two nodes say they are, checked before their replies are compared: two nodes of
 * different networks differ everywhere (every hash, the genesis block) and the comparison says
 * nothing about zecrpc; a zecrpc reference running another compatibility profile than the one
 * the target is compared under answers `upgrades` (and what its parser accepts) differently.
 * Each mismatch is a warning, not a refusal: the comparison still runs.
 */
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

/**
 * The warnings for two nodes' identities: different `chain`s, and a zecrpc reference listing an
 * upgrade `profile` does not know (so it runs a later profile).
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
  if (reference && referenceKind === 'zecrpc') {
    const unknown = reference.upgrades.filter((u) => !(profile.upgrades as readonly string[]).includes(u));
    if (unknown.length > 0) {
      const matching = COMPAT_PROFILES.filter((p) => reference.upgrades.every((u) => (p.upgrades as readonly string[]).includes(u)));
      const which = matching.length > 0 ? `profile ${matching.map((p) => p.name).join(' or ')}` : 'a profile this zecrpc does not have';
      warnings.push(
        `the reference zecrpc lists upgrades profile ${profile.name} does not know (${unknown.join(', ')}): it runs ${which}, ` +
          `not --compat ${profile.name}; upgrades and transaction parsing will differ`,
      );
    }
  }
  return warnings;
}
