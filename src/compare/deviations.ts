/**
 * The known deviations `zecrpc compare` can see in a reply: the entries of the compatibility
 * registry (compat/deviations.ts) that have a request matcher and apply under the target's
 * profile. A comparison sends the requests that exercise them like any other; a difference there
 * fails the run unless the operator excludes the deviation by name (`--exclude NAME`), and the
 * report always says how many requests each exclusion covered and how many of them differed —
 * nothing is skipped silently.
 */
import { COMPATIBILITY_REGISTRY } from '../compat/deviations.js';
import { DEFAULT_COMPAT_PROFILE, type CompatProfile } from '../compat/profiles.js';

export interface KnownDeviation {
  name: string;
  /** What zecrpc does differently. */
  description: string;
  /** Where the deviation is documented. */
  documentedIn: string;
  matches(method: string, params: readonly unknown[]): boolean;
}

/** The deviations compare classifies for a target running `profile`. */
export function knownDeviations(profile: CompatProfile = DEFAULT_COMPAT_PROFILE): readonly KnownDeviation[] {
  const out: KnownDeviation[] = [];
  for (const e of COMPATIBILITY_REGISTRY) {
    if (e.kind !== 'deviation' || e.matches === undefined || !e.profiles.includes(profile.name)) continue;
    out.push({
      name: e.name,
      description: e.text.join(' '),
      documentedIn: `docs/compatibility.md, ${e.name}`,
      matches: e.matches,
    });
  }
  return out;
}

export const KNOWN_DEVIATIONS: readonly KnownDeviation[] = knownDeviations();

export function deviationOf(
  method: string,
  params: readonly unknown[],
  deviations: readonly KnownDeviation[] = KNOWN_DEVIATIONS,
): KnownDeviation | undefined {
  return deviations.find((d) => d.matches(method, params));
}

/** Validates `--exclude` names against the registry (a typo must not pass for an exclusion). */
export function checkExclusions(names: readonly string[], deviations: readonly KnownDeviation[] = KNOWN_DEVIATIONS): string | null {
  for (const n of names) {
    if (!deviations.some((d) => d.name === n)) {
      return `--exclude: '${n}' is not a known deviation (known: ${deviations.map((d) => d.name).join(', ')})`;
    }
  }
  return null;
}
