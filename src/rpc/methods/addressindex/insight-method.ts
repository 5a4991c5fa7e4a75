/**
 * What every insight explorer method shares (zcashd v6.12.2 src/rpc/misc.cpp, blockchain.cpp):
 * the help text carries experimentalDisabledHelpMsg right after its summary while the method is
 * disabled, and a call is answered with -1 "Error: <name> is disabled. …" after the usage check.
 */
import type { JsonValue } from '../../../json/value.js';
import type { ChainStoreReader } from '../../../store/types.js';
import type { AddressIndexReader } from '../../../store/indexes/address-index-reader.js';
import { RPC, RpcError, type RawJson, type RpcContext, type RpcMethod } from '../../method.js';
import {
  disabledMessage,
  experimentalDisabledHelpMsg,
  gateArgs,
  gateOpen,
  type ExperimentalFeatures,
  type FeatureGate,
} from '../control/experimental-features.js';

/** Memory an index entry takes while a method holds it (objects, key bytes, its share of the reply text). */
const INDEX_ENTRY_BYTES = 256;

/**
 * How many index entries a request may gather: its reply memory (`RpcContext.requestMemory`)
 * over INDEX_ENTRY_BYTES. The entries are all read before any reply text is written, so the
 * reply budget alone would see them only once it was too late; past the allowance the request
 * gets the reply budget's -7 instead of reading on.
 */
export class EntryAllowance {
  private remaining: number;

  constructor(private readonly ctx: RpcContext) {
    this.remaining = ctx.requestMemory === undefined ? Infinity : Math.floor(ctx.requestMemory / INDEX_ENTRY_BYTES);
  }

  /**
   * Runs one index read with the most entries it needs to return to show the allowance exceeded
   * (one more than is left; none when unbounded), counts what it returned, and throws -7 once
   * the request holds more than it may.
   */
  async read<T>(readAtMost: (limit: number | undefined) => Promise<T[]>): Promise<T[]> {
    const entries = await readAtMost(Number.isFinite(this.remaining) ? this.remaining + 1 : undefined);
    this.remaining -= entries.length;
    if (this.remaining < 0) {
      const mib = Math.round(this.ctx.requestMemory! / (1024 * 1024));
      throw new RpcError(
        -7, // RPC_OUT_OF_MEMORY, as the reply budget answers
        `Reply too large: it would exceed the per-request memory budget of ${mib} MiB (ask for fewer or smaller results per request)`,
      );
    }
    return entries;
  }
}

/** What the insight methods read: the chain, its address index, the node's flags. */
export interface InsightContext {
  store: ChainStoreReader;
  index: AddressIndexReader;
  features: ExperimentalFeatures;
}

export interface InsightMethodSpec {
  name: string;
  category: 'addressindex' | 'blockchain';
  required: number;
  optional: number;
  gate: FeatureGate;
  /** Help before the point where the disabled warning goes (ends with "\n"). */
  helpHead: string;
  /** The rest of the help. */
  helpTail: string;
  /** zcashd's own usage check beyond the parameter count (getspentinfo wants an object). */
  usageOk?(params: readonly JsonValue[]): boolean;
  call(params: readonly JsonValue[], ctx: RpcContext): RawJson | Promise<RawJson>;
}

export function insightMethod(spec: InsightMethodSpec, features: ExperimentalFeatures): RpcMethod {
  const enabled = gateOpen(features, spec.gate);
  const help = spec.helpHead + (enabled ? '' : experimentalDisabledHelpMsg(spec.name, gateArgs(spec.gate))) + spec.helpTail;
  return {
    name: spec.name,
    category: spec.category,
    required: spec.required,
    optional: spec.optional,
    help,
    call(params, ctx) {
      // The help text is zcashd's runtime_error for a bad call: code -1 with that text.
      if (spec.usageOk && !spec.usageOk(params)) throw new RpcError(RPC.MISC_ERROR, help);
      if (!enabled) throw new RpcError(RPC.MISC_ERROR, disabledMessage(spec.name));
      return spec.call(params, ctx);
    },
  };
}

/** "taddr" example argument zcashd's address-index help texts use. */
export const EXAMPLE_ADDRESS = 'tmYXBYJj1K7vhejSec5osXK2QsGa5MTisUQ';

/** The address-list lines getaddressbalance and getaddressmempool share in their help (zcashd's exact spacing). */
export const ADDRESS_LIST_HELP = '  "addresses":\n    [\n      "address"  (string) The base58check encoded address\n      ,...\n    ]\n';
export const SINGLE_ADDRESS_HELP = '"address"  (string) The base58check encoded address\n';
