/**
 * One JSON-RPC method = one module exporting an `RpcMethod`. The server only knows this
 * interface: it checks the parameter count against `required`/`optional` (zcashd's table in
 * src/rpc/common.h), then calls `call`, which returns the result as compact JSON text.
 */
import type { NetworkParams } from '../chain/network.js';
import type { JsonValue } from '../json/value.js';
import type { JsonWriter } from '../json/writer.js';
import type { BlockChainContext } from '../render/block.js';
import type { CompatProfile } from '../compat/profiles.js';
import type { ReplyScope } from './workers/reply-slab.js';

/** A structured JSON-RPC error (passes through to the reply unchanged). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** `cause`: the underlying failure, for the server's log (never sent to the client). */
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RpcError';
  }
}

/**
 * -7 (RPC_OUT_OF_MEMORY) for a request that would use more than its reply memory
 * (`-rpcrequestmemory`): the reply budget's answer, and that of methods stopping earlier, while
 * they gather what the reply is built from.
 */
export function requestMemoryExceeded(limitBytes: number): RpcError {
  return new RpcError(
    RPC.OUT_OF_MEMORY,
    `Reply too large: it would exceed the per-request memory budget of ${Math.round(limitBytes / (1024 * 1024))} MiB (ask for fewer or smaller results per request)`,
  );
}

/**
 * The reply a byte-mode `w` wrote, in memory of its own size. The reply budget charges a reply
 * by its length, while a byte writer's buffer may be larger (it grows by doubling, or was sized
 * for more): handing on a slice of it would keep bytes nothing charged (a batch of small calls
 * could hold gigabytes).
 */
export function replyOf(w: JsonWriter): Buffer {
  const bytes = w.toBuffer();
  return bytes.buffer.byteLength > bytes.length + (bytes.length >> 3) ? Buffer.from(bytes) : bytes;
}

/** zcashd's error codes (src/rpc/protocol.h) that zecrpc raises. */
export const RPC = {
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  PARSE_ERROR: -32700,
  MISC_ERROR: -1,
  TYPE_ERROR: -3,
  INVALID_ADDRESS_OR_KEY: -5,
  INVALID_PARAMETER: -8,
  DATABASE_ERROR: -20,
  DESERIALIZATION_ERROR: -22,
  IN_WARMUP: -28,
  OUT_OF_MEMORY: -7,
} as const;

export interface RpcContext {
  readonly network: NetworkParams;
  /** The zcashd release whose replies are reproduced (`-compat`); the default profile when absent. */
  readonly profile?: CompatProfile;
  /** Asks the server to shut down after the current reply (the `stop` method). */
  requestStop(): void;
  /**
   * Verifies and renders stored blocks (getblock). The server provides a worker-thread pool;
   * without one, methods render on the calling thread (`inlineBlockRenderer`).
   */
  readonly blockRenderer?: BlockRenderer;
  /**
   * Bytes one request may use building its reply (`-rpcrequestmemory`). Methods that gather
   * index entries before writing anything stop there instead of reading without bound.
   */
  readonly requestMemory?: number;
  /** Aborted when the client that sent the request disconnects: long scans stop there. */
  readonly signal?: AbortSignal;
  /** Counts a lookup in a method's reply cache (the metrics' cache hits); absent without metrics. */
  readonly noteCacheLookup?: (cache: ReplyCacheName, hit: boolean) => void;
  /**
   * The request's hold on memory lent to its reply, given back once the reply has been written
   * (or its connection is gone); absent where no server writes the reply (library, tests).
   */
  readonly replyScope?: ReplyScope;
}

/** The reply caches a lookup is counted for: a bounded set, as every metric label. */
export type ReplyCacheName = 'getblock' | 'decoderawtransaction';

/**
 * A method's result as compact JSON: text, or its UTF-8 bytes for large results (rendering a
 * big block straight into bytes avoids building and re-encoding a multi-megabyte string).
 */
export type RawJson = string | Buffer;

export interface RpcMethod {
  readonly name: string;
  /** zcashd's category (drives `help` grouping); 'hidden' is not listed by `help`. */
  readonly category: string;
  readonly required: number;
  readonly optional: number;
  /** The full text `help <name>` returns (its first line is listed by `help`). */
  readonly help: string;
  /**
   * Runs the method. Returns the result as compact JSON (text or UTF-8 bytes). Throws RpcError
   * for structured errors; any other Error becomes code -1 with its message (zcashd's rule).
   */
  call(params: readonly JsonValue[], ctx: RpcContext): RawJson | Promise<RawJson>;
  /**
   * Set when every text result is pure ASCII (TxToJSON: hex, asm, base58, fixed words). The
   * dispatcher then encodes it as latin1, which for ASCII is its UTF-8 and cheaper than the
   * UTF-8 encoder (decoderawtransaction replies are tens of kilobytes).
   */
  readonly asciiResults?: boolean;
  /**
   * How zecrpc answers zcashd's method (docs/methods.md): 'exact' (the default) from its own
   * chain store, as zcashd would; 'peerless' as zcashd answers with no peers, no wallet and no
   * miner; 'upstream' relayed to the -upstream node when one is set.
   */
  readonly surface?: MethodSurface;
  /** What one call costs, when that is more than a few index reads (listed in docs/methods.md). */
  readonly cost?: string;
  /** The replies the method keeps for later calls, which the server drops once it goes idle. */
  readonly cache?: MethodCache;
}

/**
 * Memory a method keeps between calls (a reply cache): bounded, and worth keeping while the same
 * requests keep coming, but after a burst it would stay held for as long as the server is idle.
 */
export interface MethodCache {
  /** Bytes kept (a text reply counted by its length: reply text is ASCII). */
  readonly bytes: number;
  /** Drops everything kept; later calls fill the cache again. */
  clear(): void;
  /**
   * A cache keyed by long plain strings a request repeats (decoderawtransaction's hex): the one
   * it keeps equal to `bytes`, so that the request reader need not scan them (json/known-strings.ts).
   */
  plainStringEqualTo?(bytes: Uint8Array): string | undefined;
  /** The same for the run of `bytes` from `start` to the next `"` (json/known-strings.ts). */
  plainStringFrom?(bytes: Uint8Array, start: number, minLength: number): string | undefined;
}

export type MethodSurface = 'exact' | 'peerless' | 'upstream';

/**
 * Turns stored block bytes into getblock's result (workers/block-renderer.ts: on worker threads
 * for the server, inline otherwise); declared here, beside the context that carries one.
 */
export interface BlockRenderRequest {
  /** The block hash (internal order), to name the block when it fails verification. */
  hash: Uint8Array;
  bytes: Uint8Array;
  verbosity: 0 | 1 | 2;
  /** Chain position; required for verbosity 1 and 2. */
  context: BlockChainContext | null;
  network: NetworkParams;
  /**
   * The result only goes into the reply of the request being served and is not kept once that
   * reply is written (no cache holds it): the server's renderer may then return a view into
   * memory it lends to the reply and reuses afterwards.
   */
  transient?: boolean;
}

export interface BlockRenderer {
  /** The result JSON; throws BlockReadError when the bytes are not a sound block. */
  render(req: BlockRenderRequest): Promise<RawJson>;
}
