// Runs an RpcMethod the way the dispatcher does (rpc-http-json.md §3.3 step 5): params come
// from the real JSON reader (so number tokens keep their text), RpcErrors keep their code and
// any other Error becomes -1 with its message.
import { MAINNET } from '../../src/chain/network.js';
import { parseJson, type JsonValue } from '../../src/json/index.js';
import { RpcError, type RpcContext, type RpcMethod } from '../../src/rpc/method.js';

export type CallOutcome = { result: string } | { error: { code: number; message: string } };

/** `ctx` adds to (or overrides) the default context: mainnet, the default profile. */
export async function callMethod(method: RpcMethod, paramsJson: string, ctx: Partial<RpcContext> = {}): Promise<CallOutcome> {
  const params = parseJson(paramsJson) as JsonValue[];
  try {
    const raw = await method.call(params, { network: MAINNET, requestStop: () => {}, ...ctx });
    // Large results may come back as UTF-8 bytes; compare them as text.
    return { result: typeof raw === 'string' ? raw : raw.toString('utf8') };
  } catch (e) {
    if (e instanceof RpcError) return { error: { code: e.code, message: e.message } };
    return { error: { code: -1, message: (e as Error).message } };
  }
}

/** The result text, failing the test with the error if the call failed. */
export async function resultOf(method: RpcMethod, paramsJson: string, ctx: Partial<RpcContext> = {}): Promise<string> {
  const out = await callMethod(method, paramsJson, ctx);
  if ('error' in out) throw new Error(`unexpected error ${out.error.code}: ${out.error.message}`);
  return out.result;
}

/** The error of a call that must fail. */
export async function errorOf(method: RpcMethod, paramsJson: string): Promise<{ code: number; message: string }> {
  const out = await callMethod(method, paramsJson);
  if ('result' in out) throw new Error(`expected an error, got ${out.result.slice(0, 200)}`);
  return out.error;
}
