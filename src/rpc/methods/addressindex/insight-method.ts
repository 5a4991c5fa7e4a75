/**
 * What every insight explorer method shares (zcashd v6.12.2 src/rpc/misc.cpp, blockchain.cpp):
 * the help text carries experimentalDisabledHelpMsg right after its summary while the method is
 * disabled, and a call is answered with -1 "Error: <name> is disabled. …" after the usage check.
 */
import type { JsonValue } from '../../../json/value.js';
import type { ChainStoreReader } from '../../../store/types.js';
import type { AddressIndexReader } from '../../../store/indexes/address-index-reader.js';
import { ADDRESS_WORK_BYTES } from './params.js';
import { RPC, requestMemoryExceeded, RpcError, type RawJson, type RpcContext, type RpcMethod } from '../../method.js';
import {
  disabledMessage,
  experimentalDisabledHelpMsg,
  gateArgs,
  gateOpen,
  type ExperimentalFeatures,
  type FeatureGate,
} from '../control/experimental-features.js';

/**
 * Memory a request may use per index entry it reads, in bytes, per method: the most resident
 * memory each was measured to use per entry (bench/insight-memory.ts: what it keeps, its reply
 * growing, and the garbage not yet collected), with a quarter or more added for the collector's
 * timing. getaddressdeltas and getblockhashes write their replies as they read, and hold only
 * the reply; getaddresstxids keeps each transaction's txid (32 bytes) and block position until
 * its addresses are merged; getaddressutxos keeps each output's txid, script and amount until
 * they are sorted by height (both then write their replies into exactly the room they need).
 * getaddressbalance sums a batch at a time and is not limited.
 */
export const INDEX_ENTRY_BYTES = {
  getaddressdeltas: 640,
  getaddresstxids: 576,
  getaddressutxos: 768,
  getblockhashes: 1024,
} as const;

/**
 * Bytes a reply written as its entries are read starts with; the writer doubles it as needed,
 * so a short reply takes little and a long one grows in a few steps.
 */
export const REPLY_START_BYTES = 16 * 1024;

/**
 * How many index entries a request may read: its reply memory (`RpcContext.requestMemory`) over
 * the method's INDEX_ENTRY_BYTES. The reply budget sees a reply only once it is built, too late
 * for the memory used to build it; past the allowance the request gets the reply budget's -7
 * instead of reading on.
 */
export class EntryAllowance {
  private remaining: number;

  /** `addresses`: how many the request lists; their ADDRESS_WORK_BYTES each are not left for entries. */
  constructor(
    private readonly ctx: RpcContext,
    method: keyof typeof INDEX_ENTRY_BYTES,
    addresses = 0,
  ) {
    this.remaining =
      ctx.requestMemory === undefined
        ? Infinity
        : Math.max(0, Math.floor((ctx.requestMemory - addresses * ADDRESS_WORK_BYTES) / INDEX_ENTRY_BYTES[method]));
  }

  /**
   * Runs one batched index read asking for the most entries it needs to show the allowance
   * exceeded (one more than is left; no limit when unbounded), and hands its batches on as they
   * come, counting them: -7 once the request has read more than it may.
   */
  async *batches<T>(readAtMost: (limit: number | undefined) => AsyncIterable<T[]>): AsyncGenerator<T[]> {
    for await (const batch of readAtMost(Number.isFinite(this.remaining) ? this.remaining + 1 : undefined)) {
      this.remaining -= batch.length;
      if (this.remaining < 0) throw requestMemoryExceeded(this.ctx.requestMemory!);
      yield batch;
    }
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
