/**
 * What signrawtransaction reads besides the transaction (zcashd v6.12.2 src/rpc/rawtransaction.cpp
 * `signrawtransaction`): the private keys, the previous outputs given (`prevtxs`) laid over the
 * coins view, the hash type and the consensus branch id, each with zcashd's checks, messages and
 * codes, in zcashd's order.
 */
import { BRANCH_IDS } from '../../../chain/upgrades.js';
import { hexToBytes, toHex } from '../../../codec/hex.js';
import { scriptToAsm } from '../../../codec/script/asm.js';
import type { NetworkParams } from '../../../chain/network.js';
import { decodeSecretKey } from '../../../codec/script/secret-key.js';
import { isPayToScriptHash } from '../../../codec/script/solver.js';
import { SIGHASH_ALL, SIGHASH_ANYONECANPAY, SIGHASH_NONE, SIGHASH_SINGLE } from '../../../codec/tx/sighash.js';
import { KeyStore } from '../../../codec/tx/transparent-signing.js';
import type { CompatProfile } from '../../../compat/profiles.js';
import { isValidSecret } from '../../../crypto/secp256k1.js';
import { getInt, getStr } from '../../../json/getters.js';
import { JsonObject, jsonTypeName, type JsonValue } from '../../../json/value.js';
import { amountFromValue } from '../../amount.js';
import { RPC, RpcError } from '../../method.js';
import { isHex } from '../../../codec/hex.js';
import { parseHashV } from '../../params.js';

/** An output the signer spends: its script and amount (zatoshis). */
export interface SpendableCoin {
  scriptPubKey: Uint8Array;
  value: number;
}

/**
 * zcashd's CCoinsViewCache as signrawtransaction fills it: the chain's unspent outputs of the
 * transactions the inputs spend from (read through `chainCoin`), with the previous outputs the
 * call gives laid over them.
 */
export class SigningCoins {
  private readonly given = new Map<string, SpendableCoin>();

  constructor(
    private readonly chainCoin: (txid: Uint8Array, n: number) => SpendableCoin | null,
    /** The transactions the inputs spend from: only their coins were read from the chain. */
    private readonly fromChain: ReadonlySet<string>,
  ) {}

  /** `AccessCoins(txid)->IsAvailable(n)`: the coin, or null. */
  get(txid: Uint8Array, n: number): SpendableCoin | null {
    const key = toHex(txid);
    return this.given.get(`${key}:${n}`) ?? (this.fromChain.has(key) ? this.chainCoin(txid, n) : null);
  }

  set(txid: Uint8Array, n: number, coin: SpendableCoin): void {
    this.given.set(`${toHex(txid)}:${n}`, coin);
  }
}

/** `ParseHexV(v, name)`: -8 unless a non-empty even-length hex string. */
export function parseHexV(v: JsonValue | undefined, name: string): Uint8Array {
  const s = typeof v === 'string' ? v : '';
  if (!isHex(s)) throw new RpcError(RPC.INVALID_PARAMETER, `${name} must be hexadecimal string (not '${s}')`);
  return hexToBytes(s);
}

/** The third argument: a key store of the WIF keys, in order, the first bad one refused. */
export function readPrivateKeys(keys: readonly JsonValue[], network: NetworkParams): KeyStore {
  const store = new KeyStore();
  for (const k of keys) {
    const key = decodeSecretKey(getStr(k), network);
    if (!key || !isValidSecret(key.secret)) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Invalid private key');
    store.addKey(key.secret, key.compressed);
  }
  return store;
}

/**
 * `RPCTypeCheckObj(o, types)` over a std::map, so in key order: a member absent or null is
 * "Missing <key>", one of another type "Expected type <type> for <key>, got <type>".
 */
function checkMembers(o: JsonObject, types: Readonly<Record<string, 'string' | 'number'>>): void {
  for (const key of Object.keys(types).sort()) {
    const v = o.get(key);
    if (v === undefined || v === null) throw new RpcError(RPC.TYPE_ERROR, `Missing ${key}`);
    const type = jsonTypeName(v);
    if (type !== types[key]) throw new RpcError(RPC.TYPE_ERROR, `Expected type ${types[key]} for ${key}, got ${type}`);
  }
}

const PREVOUT_MEMBERS = { txid: 'string', vout: 'number', scriptPubKey: 'string' } as const;

/**
 * The second argument: each previous output replaces what the coins view holds for it (its
 * amount 0 when none is given), after a scriptPubKey that differs from an unspent coin's is
 * refused; with keys given, a P2SH output's redeem script joins the key store.
 */
export function readPreviousOutputs(prevTxs: readonly JsonValue[], coins: SigningCoins, keys: KeyStore | null): void {
  for (const p of prevTxs) {
    if (!(p instanceof JsonObject)) {
      throw new RpcError(RPC.DESERIALIZATION_ERROR, 'expected object with {"txid\'","vout","scriptPubKey"}');
    }
    checkMembers(p, PREVOUT_MEMBERS);
    const txid = parseHashV(p.get('txid'), 'txid');
    const n = getInt(p.get('vout')!);
    if (n < 0) throw new RpcError(RPC.DESERIALIZATION_ERROR, 'vout must be positive');
    const scriptPubKey = parseHexV(p.get('scriptPubKey'), 'scriptPubKey');
    const existing = coins.get(txid, n);
    if (existing && toHex(existing.scriptPubKey) !== toHex(scriptPubKey)) {
      throw new RpcError(
        RPC.DESERIALIZATION_ERROR,
        `Previous output scriptPubKey mismatch:\n${scriptToAsm(existing.scriptPubKey, false)}\nvs:\n${scriptToAsm(scriptPubKey, false)}`,
      );
    }
    const value = p.has('amount') ? Number(amountFromValue(p.get('amount'))) : 0;
    coins.set(txid, n, { scriptPubKey, value });
    if (keys && isPayToScriptHash(scriptPubKey)) {
      checkMembers(p, { ...PREVOUT_MEMBERS, redeemScript: 'string' });
      // A script over 520 bytes is not added (CBasicKeyStore::AddCScript), and nothing says so.
      keys.addScript(parseHexV(p.get('redeemScript'), 'redeemScript'));
    }
  }
}

const HASH_TYPES: ReadonlyMap<string, number> = new Map([
  ['ALL', SIGHASH_ALL],
  ['ALL|ANYONECANPAY', SIGHASH_ALL | SIGHASH_ANYONECANPAY],
  ['NONE', SIGHASH_NONE],
  ['NONE|ANYONECANPAY', SIGHASH_NONE | SIGHASH_ANYONECANPAY],
  ['SINGLE', SIGHASH_SINGLE],
  ['SINGLE|ANYONECANPAY', SIGHASH_SINGLE | SIGHASH_ANYONECANPAY],
]);

/** The fourth argument's hash type. */
export function readHashType(text: string): number {
  const hashType = HASH_TYPES.get(text);
  if (hashType === undefined) throw new RpcError(RPC.INVALID_PARAMETER, 'Invalid sighash param');
  return hashType;
}

const C_SPACE = /^[ \t\n\v\f\r]*/;

/**
 * `ParseHexToUInt32`: `istringstream >> std::hex >> uint32_t` under libstdc++ — blanks, a sign
 * (a minus negates modulo 2^32), an optional 0x, then hex digits up to the first other
 * character; no digit reads 0 and too many read 0xffffffff. It never fails.
 */
export function parseHexToUInt32(text: string): number {
  let i = C_SPACE.exec(text)![0].length;
  let negative = false;
  if (text[i] === '+' || text[i] === '-') negative = text[i++] === '-';
  if (text[i] === '0' && (text[i + 1] === 'x' || text[i + 1] === 'X')) i += 2;
  let value = 0;
  let overflow = false;
  for (; i < text.length; i++) {
    const digit = parseInt(text[i]!, 16);
    if (Number.isNaN(digit)) break;
    value = value * 16 + digit;
    if (value > 0xffffffff) overflow = true;
  }
  if (overflow) return 0xffffffff;
  return negative ? -value >>> 0 : value;
}

/** zcashd's test upgrade's and ZFUTURE's branch ids, in its table beside the real upgrades'. */
const TESTDUMMY_BRANCH_ID = 0x74736554;
const ZFUTURE_BRANCH_ID = 0xffffffff;

/**
 * The fifth argument: `IsConsensusBranchId` over zcashd's upgrade table (Sprout's 0 and the test
 * and future upgrades' included) and the upgrades the profile knows; a plain runtime_error (-1).
 */
export function readBranchId(text: string, profile: CompatProfile): number {
  const branchId = parseHexToUInt32(text);
  const known = new Set([BRANCH_IDS.Sprout, TESTDUMMY_BRANCH_ID, ZFUTURE_BRANCH_ID, ...profile.upgrades.map((u) => BRANCH_IDS[u])]);
  if (!known.has(branchId)) throw new RpcError(RPC.MISC_ERROR, `${text} is not a valid consensus branch id`);
  return branchId;
}
