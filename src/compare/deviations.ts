/**
 * zecrpc's documented deviations from zcashd. A comparison sends the requests that exercise
 * them like any other; a difference there fails the run unless the operator excludes the
 * deviation by name (`--exclude NAME`), and the report always says how many requests each
 * exclusion covered and how many of them differed — nothing is skipped silently.
 */

export interface KnownDeviation {
  name: string;
  /** What zecrpc does differently, in one sentence. */
  description: string;
  /** Where the deviation is documented. */
  documentedIn: string;
  matches(method: string, params: readonly unknown[]): boolean;
}

export const KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    name: 'getblock-numeric-height',
    description:
      'getblock also accepts a JSON number as the height; zcashd answers it with error -1 "JSON value is not a string as expected"',
    documentedIn: 'README.md, Compatibility notes',
    matches: (method, params) => method === 'getblock' && typeof params[0] === 'number',
  },
];

export function deviationOf(method: string, params: readonly unknown[]): KnownDeviation | undefined {
  return KNOWN_DEVIATIONS.find((d) => d.matches(method, params));
}

/** Validates `--exclude` names against the registry (a typo must not pass for an exclusion). */
export function checkExclusions(names: readonly string[]): string | null {
  for (const n of names) {
    if (!KNOWN_DEVIATIONS.some((d) => d.name === n)) {
      return `--exclude: '${n}' is not a known deviation (known: ${KNOWN_DEVIATIONS.map((d) => d.name).join(', ')})`;
    }
  }
  return null;
}
