/**
 * Signing a transparent input as zcashd v6.12.2's `ProduceSignature` does (src/script/sign.cpp):
 * P2PKH (signature and key), P2PK (signature), bare multisig (the dummy element, then signatures
 * by the keys held, in the script's key order, up to the number required) and P2SH around any
 * of them (the redeem script from the key store, signed as its own script, pushed last). Keys
 * and redeem scripts come from a `KeyStore` (zcashd's CBasicKeyStore of the keys given).
 */
import { toHex } from '../hex.js';
import { hash160 } from '../../crypto/hash.js';
import { publicKeyOf, signDer } from '../../crypto/secp256k1.js';
import type { SignatureChecker } from '../script/checker.js';
import { MAX_SCRIPT_ELEMENT_SIZE } from '../script/interpreter.js';
import { OP_0, OP_1, OP_PUSHDATA1, OP_PUSHDATA2, OP_PUSHDATA4 } from '../script/opcodes.js';
import { ScriptError } from '../script/script-error.js';
import { STANDARD_SCRIPT_VERIFY_FLAGS } from '../script/signature-encoding.js';
import { scriptSolutions } from '../script/solver.js';
import { verifyScript } from '../script/verify-script.js';
import { transparentSignatureHash, type SigningInput } from './signature-checker.js';
import type { TransactionData } from './types.js';

/** zcashd's CBasicKeyStore: keys by the hash of their public key, redeem scripts by their hash. */
export class KeyStore {
  private readonly keys = new Map<string, { secret: Uint8Array; publicKey: Uint8Array }>();
  private readonly scripts = new Map<string, Uint8Array>();

  /** `AddKey`: the key under the hash of its public key, compressed as its WIF said. */
  addKey(secret: Uint8Array, compressed: boolean): void {
    const publicKey = publicKeyOf(secret, compressed);
    this.keys.set(toHex(hash160(publicKey)), { secret, publicKey });
  }

  /** `AddCScript`: refused (false) above 520 bytes, the most a P2SH scriptSig can push. */
  addScript(redeemScript: Uint8Array): boolean {
    if (redeemScript.length > MAX_SCRIPT_ELEMENT_SIZE) return false;
    this.scripts.set(toHex(hash160(redeemScript)), redeemScript);
    return true;
  }

  key(keyId: Uint8Array): { secret: Uint8Array; publicKey: Uint8Array } | undefined {
    return this.keys.get(toHex(keyId));
  }

  script(scriptId: Uint8Array): Uint8Array | undefined {
    return this.scripts.get(toHex(scriptId));
  }
}

/** What signs one input: the transaction, the input, the hash type and the keys. */
export interface SignatureCreator {
  tx: TransactionData;
  input: SigningInput;
  hashType: number;
  keys: KeyStore;
  /** The checker of the same input, which verifies what was produced. */
  checker: SignatureChecker;
}

/** `TransactionSignatureCreator::CreateSig`: DER ‖ hash type, or null without the key or a hash. */
function createSig(creator: SignatureCreator, keyId: Uint8Array, scriptCode: Uint8Array, branchId: number): Uint8Array | null {
  const key = creator.keys.key(keyId);
  if (!key) return null;
  const hash = transparentSignatureHash(creator.tx, creator.input, scriptCode, creator.hashType, branchId);
  if (!hash) return null;
  const der = signDer(hash, key.secret);
  const sig = new Uint8Array(der.length + 1);
  sig.set(der);
  sig[der.length] = creator.hashType;
  return sig;
}

/** `SignStep`: the elements that satisfy `script` (for P2SH, its redeem script), and whether it is solved. */
function signStep(
  creator: SignatureCreator,
  script: Uint8Array,
  branchId: number,
): { solved: boolean; type: string | null; elements: Uint8Array[] } {
  const solved = scriptSolutions(script);
  const elements: Uint8Array[] = [];
  if (!solved) return { solved: false, type: null, elements };
  const { type, solutions } = solved;
  const sign1 = (keyId: Uint8Array): boolean => {
    const sig = createSig(creator, keyId, script, branchId);
    if (sig) elements.push(sig);
    return sig !== null;
  };
  switch (type) {
    case 'pubkey':
      return { solved: sign1(hash160(solutions[0]!)), type, elements };
    case 'pubkeyhash': {
      if (!sign1(solutions[0]!)) return { solved: false, type, elements };
      elements.push(creator.keys.key(solutions[0]!)!.publicKey);
      return { solved: true, type, elements };
    }
    case 'scripthash': {
      const redeemScript = creator.keys.script(solutions[0]!);
      if (redeemScript) elements.push(redeemScript);
      return { solved: redeemScript !== undefined, type, elements };
    }
    case 'multisig': {
      // The element CHECKMULTISIG pops beyond its arguments.
      elements.push(new Uint8Array(0));
      const required = solutions[0]![0]!;
      let signed = 0;
      for (let i = 1; i < solutions.length - 1 && signed < required; i++) if (sign1(hash160(solutions[i]!))) signed++;
      return { solved: signed === required, type, elements };
    }
    default:
      return { solved: false, type, elements };
  }
}

/** `PushAll`: each element as the smallest push (OP_0 and OP_1 … OP_16 for those values). */
export function pushAll(elements: readonly Uint8Array[]): Uint8Array {
  const parts: number[] = [];
  for (const v of elements) {
    if (v.length === 0) parts.push(OP_0);
    else if (v.length === 1 && v[0]! >= 1 && v[0]! <= 16) parts.push(OP_1 + v[0]! - 1);
    else {
      const n = v.length;
      if (n < OP_PUSHDATA1) parts.push(n);
      else if (n <= 0xff) parts.push(OP_PUSHDATA1, n);
      else if (n <= 0xffff) parts.push(OP_PUSHDATA2, n & 0xff, n >>> 8);
      else parts.push(OP_PUSHDATA4, n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);
      for (const b of v) parts.push(b);
    }
  }
  return Uint8Array.from(parts);
}

/**
 * `ProduceSignature(creator, scriptPubKey, sigdata, consensusBranchId)`: the scriptSig made of
 * what the keys can sign, and whether it is complete and verifies under the standard flags.
 */
export function produceSignature(
  creator: SignatureCreator,
  scriptPubKey: Uint8Array,
  branchId: number,
): { scriptSig: Uint8Array; complete: boolean } {
  let step = signStep(creator, scriptPubKey, branchId);
  let solved = step.solved;
  let elements = step.elements;
  if (solved && step.type === 'scripthash') {
    const redeemScript = elements[0]!;
    step = signStep(creator, redeemScript, branchId);
    solved = step.solved && step.type !== 'scripthash';
    elements = [...step.elements, redeemScript];
  }
  const scriptSig = pushAll(elements);
  const complete =
    solved && verifyScript(scriptSig, scriptPubKey, STANDARD_SCRIPT_VERIFY_FLAGS, creator.checker, branchId) === ScriptError.OK;
  return { scriptSig, complete };
}
