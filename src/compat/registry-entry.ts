/**
 * The shape of an entry of the compatibility registry (deviations.ts), apart from the entries so
 * that the registry's parts (http-deviations.ts) can share it.
 */
import { COMPAT_PROFILES } from './profiles.js';

export interface RegistryEntry {
  /** Stable name (`zecrpc compare --exclude NAME` for those with a matcher). */
  readonly name: string;
  /** 'deviation': zecrpc answers differently from zcashd; 'note': it matches, in a way worth saying. */
  readonly kind: 'deviation' | 'note';
  /** The RPC methods, options or parts of the node it concerns. */
  readonly subjects: readonly string[];
  /** The reply member, parameter or option concerned; null when it is the whole behaviour. */
  readonly member: string | null;
  /** What zecrpc does, as Markdown lines. */
  readonly text: readonly string[];
  readonly why: string;
  /** The zecrpc version that first behaves so. */
  readonly since: string;
  /** The compatibility profiles (`-compat`) it applies under. */
  readonly profiles: readonly string[];
  /** Whether a JSON-RPC request exercises it, for the entries `zecrpc compare` can see in a reply. */
  readonly matches?: (method: string, params: readonly unknown[]) => boolean;
}

/** The profiles an entry applies under when it concerns zecrpc itself rather than one release's chain. */
export const EVERY_PROFILE: readonly string[] = COMPAT_PROFILES.map((p) => p.name);
