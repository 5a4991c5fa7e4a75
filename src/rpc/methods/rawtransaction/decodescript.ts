/**
 * `decodescript "hex"` (zcashd v6.12.2 src/rpc/rawtransaction.cpp `decodescript`, with
 * `ScriptPubKeyToJSON(script, r, false)`): the script's asm, its output type and, when
 * ExtractDestinations succeeds, reqSigs and addresses, then the P2SH address of the script.
 * No `hex` member: zcashd's help lists one, its reply has none.
 */
import { hexToBytes, isHex } from '../../../codec/hex.js';
import { encodeTransparentAddress } from '../../../codec/script/address.js';
import { scriptToAsm } from '../../../codec/script/asm.js';
import { solveScript } from '../../../codec/script/solver.js';
import { hash160 } from '../../../crypto/hash.js';
import { jsonTypeName } from '../../../json/value.js';
import { JsonWriter } from '../../../json/writer.js';
import { helpExampleCli, helpExampleRpc, helpLines } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';

const HELP =
  helpLines(
    'decodescript "hex"',
    '',
    'Decode a hex-encoded script.',
    '',
    'Arguments:',
    '1. "hex"     (string) the hex encoded script',
    '',
    'Result:',
    '{',
    '  "asm":"asm",   (string) Script public key',
    '  "hex":"hex",   (string) hex encoded public key',
    '  "type":"type", (string) The output type',
    '  "reqSigs": n,    (numeric) The required signatures',
    '  "addresses": [   (json array of string)',
    '     "address"     (string) Zcash address',
    '     ,...',
    '  ],',
    '  "p2sh","address" (string) script address',
    '}',
    '',
    'Examples:',
  ) +
  helpExampleCli('decodescript', '"hexstring"') +
  helpExampleRpc('decodescript', '"hexstring"');

export const decodeScriptMethod: RpcMethod = {
  name: 'decodescript',
  category: 'rawtransactions',
  required: 1,
  optional: 0,
  help: HELP,
  asciiResults: true,
  call(params, ctx) {
    const hex = params[0]!;
    if (typeof hex !== 'string') throw new RpcError(RPC.TYPE_ERROR, `Expected type string, got ${jsonTypeName(hex)}`);
    // An empty script is valid; anything else must be hex (ParseHexV).
    if (hex.length > 0 && !isHex(hex)) {
      throw new RpcError(RPC.INVALID_PARAMETER, `argument must be hexadecimal string (not '${hex}')`);
    }
    const script = hexToBytes(hex);
    const solved = solveScript(script);
    const w = new JsonWriter().beginObject().key('asm').str(scriptToAsm(script, false));
    if (solved.destinations !== undefined) {
      w.key('reqSigs').int(solved.reqSigs!).key('type').str(solved.type).key('addresses').beginArray();
      for (const d of solved.destinations) w.str(encodeTransparentAddress(d.kind, d.hash, ctx.network));
      w.endArray();
    } else {
      w.key('type').str(solved.type);
    }
    w.key('p2sh').str(encodeTransparentAddress('p2sh', hash160(script), ctx.network));
    return w.endObject().toString();
  },
};
