/**
 * `--methods` selection: `getblock:0,1,2,decoderawtransaction,getblockheader,…`. A name starts a
 * method; the JSON scalars after a colon and following commas are its variants (the last
 * parameter each request is sent with: getblock's verbosity, getblockheader's `verbose`).
 */
import { CompareError } from './errors.js';

/** How a method's requests are built from a sampled block. */
export type MethodScope =
  /** Once per sampled height. */
  | 'height'
  /** Once per transaction of each sampled block. */
  | 'transaction'
  /** Once per run (tip-dependent answers: compare nodes at the same tip). */
  | 'once';

interface MethodInfo {
  scope: MethodScope;
  /** Variants when none are given; [] = the method takes no variant parameter. */
  defaultVariants: readonly (number | boolean)[];
}

export const SUPPORTED_METHODS: Readonly<Record<string, MethodInfo>> = {
  getblockhash: { scope: 'height', defaultVariants: [] },
  getblock: { scope: 'height', defaultVariants: [0, 1, 2] },
  getblockheader: { scope: 'height', defaultVariants: [true, false] },
  z_gettreestate: { scope: 'height', defaultVariants: [] },
  decoderawtransaction: { scope: 'transaction', defaultVariants: [] },
  getrawtransaction: { scope: 'transaction', defaultVariants: [0, 1] },
  getblockcount: { scope: 'once', defaultVariants: [] },
  getbestblockhash: { scope: 'once', defaultVariants: [] },
  getdifficulty: { scope: 'once', defaultVariants: [] },
  getblockchaininfo: { scope: 'once', defaultVariants: [] },
};

export const DEFAULT_METHODS = 'getblockhash,getblock:0,1,2,getblockheader:true,false,decoderawtransaction';

export interface MethodSelection {
  method: string;
  scope: MethodScope;
  /** Empty when the method has no variant parameter. */
  variants: (number | boolean)[];
}

function parseVariant(token: string): number | boolean | undefined {
  if (token === 'true') return true;
  if (token === 'false') return false;
  if (/^-?\d+$/.test(token)) return Number(token);
  return undefined;
}

export function parseMethodSelection(text: string): MethodSelection[] {
  const out: MethodSelection[] = [];
  for (const raw of text.split(',')) {
    const token = raw.trim();
    if (token === '') continue;
    const colon = token.indexOf(':');
    const name = colon >= 0 ? token.slice(0, colon) : token;
    const variantText = colon >= 0 ? token.slice(colon + 1) : undefined;
    const asVariant = colon < 0 ? parseVariant(token) : undefined;
    if (asVariant !== undefined) {
      const last = out.at(-1);
      if (!last) throw new CompareError(`--methods: '${token}' must follow a method name (e.g. getblock:0,1,2)`);
      if (SUPPORTED_METHODS[last.method]!.defaultVariants.length === 0)
        throw new CompareError(`--methods: ${last.method} takes no variant ('${token}')`);
      last.variants.push(asVariant);
      continue;
    }
    const info = SUPPORTED_METHODS[name];
    if (!info) throw new CompareError(`--methods: unknown method '${name}' (supported: ${Object.keys(SUPPORTED_METHODS).join(', ')})`);
    if (out.some((m) => m.method === name)) throw new CompareError(`--methods: ${name} is listed twice`);
    const selection: MethodSelection = { method: name, scope: info.scope, variants: [] };
    if (variantText !== undefined) {
      const v = parseVariant(variantText);
      if (v === undefined || info.defaultVariants.length === 0)
        throw new CompareError(`--methods: bad variant '${variantText}' for ${name}`);
      selection.variants.push(v);
    }
    out.push(selection);
  }
  for (const m of out) if (m.variants.length === 0) m.variants.push(...SUPPORTED_METHODS[m.method]!.defaultVariants);
  if (out.length === 0) throw new CompareError('--methods: no method given');
  return out;
}

/** The name a request's results are counted under: `getblock:1`, `decoderawtransaction`. */
export function methodKey(method: string, variant: number | boolean | undefined): string {
  return variant === undefined ? method : `${method}:${String(variant)}`;
}
