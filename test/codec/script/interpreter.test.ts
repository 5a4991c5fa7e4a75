// The interpreter's error texts and rules on hand-written scripts, each failure as zcashd
// v6.12.2's EvalScript/VerifyScript sets it (src/script/interpreter.cpp) and ScriptErrorString
// prints it; the script numbers (CScriptNum) read and written; a real signature's encodings.
import { describe, expect, it } from 'vitest';
import { NO_SIGNATURE_CHECKER, type SignatureChecker } from '../../../src/codec/script/checker.js';
import { evalScript } from '../../../src/codec/script/interpreter.js';
import { scriptErrorString } from '../../../src/codec/script/script-error.js';
import { ScriptNumError, scriptNumBytes, scriptNumFrom } from '../../../src/codec/script/script-num.js';
import {
  SCRIPT_VERIFY_CLEANSTACK,
  SCRIPT_VERIFY_P2SH,
  STANDARD_SCRIPT_VERIFY_FLAGS,
  checkSignatureEncoding,
} from '../../../src/codec/script/signature-encoding.js';
import { verifyScript } from '../../../src/codec/script/verify-script.js';
import { hash160 } from '../../../src/crypto/hash.js';
import { parseScriptText } from '../../support/script-text.js';

const S = parseScriptText;
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
/** A checker that accepts exactly the signatures `valid` lists (by hex), and any lock time. */
const checkerAccepting = (...valid: string[]): SignatureChecker => ({
  checkSig: (sig) => valid.includes(hex(sig)),
  checkLockTime: () => true,
});
const verify = (scriptSig: string, scriptPubKey: string, flags = STANDARD_SCRIPT_VERIFY_FLAGS, checker = NO_SIGNATURE_CHECKER) =>
  scriptErrorString(verifyScript(S(scriptSig), S(scriptPubKey), flags, checker, 0));
const evaluate = (script: Uint8Array | string, flags = STANDARD_SCRIPT_VERIFY_FLAGS) => {
  const stack: Uint8Array[] = [];
  const error = scriptErrorString(evalScript(stack, typeof script === 'string' ? S(script) : script, flags, NO_SIGNATURE_CHECKER, 0));
  return { error, stack: stack.map(hex) };
};

// A strict-DER, low-S signature with SIGHASH_ALL (the first tx_valid.json vector's, re-encoded minimally).
const SIG =
  '3044022067288ea50aa799543a536ff9306f8e1cba05b9c6b10951175b924f96732555ed022026d7b5265f38d21541519e4a1e55044d5b9e17e15cdbaf29ae3792e99e883e7a01';
const KEY = '03ba8c8b86dea131c22ab967e6dd99bdae8eff7a1f75a2c35f1f944109e3fe5e22';
const ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe('script numbers', () => {
  it('reads and writes little-endian sign-magnitude, minimal or refused', () => {
    for (const [n, encoded] of [
      [0, ''],
      [1, '01'],
      [-1, '81'],
      [127, '7f'],
      [128, '8000'],
      [-128, '8080'],
      [255, 'ff00'],
      [2147483647, 'ffffff7f'],
      [-2147483647, 'ffffffff'],
    ] as const) {
      expect(hex(scriptNumBytes(n))).toBe(encoded);
      expect(scriptNumFrom(Buffer.from(encoded, 'hex'), true)).toBe(n);
    }
    expect(() => scriptNumFrom(Uint8Array.of(1, 0), true)).toThrow(ScriptNumError);
    expect(scriptNumFrom(Uint8Array.of(1, 0), false)).toBe(1);
    expect(() => scriptNumFrom(Uint8Array.of(1, 2, 3, 4, 5), false)).toThrow('script number overflow');
  });
});

describe('EvalScript', () => {
  it('runs stack, arithmetic, hashing and conditional opcodes', () => {
    expect(evaluate('2 3 ADD 5 NUMEQUAL')).toEqual({ error: 'No error', stack: ['01'] });
    expect(evaluate('1 2 3 ROT')).toEqual({ error: 'No error', stack: ['02', '03', '01'] });
    expect(evaluate('1 IF 7 ELSE 8 ENDIF')).toEqual({ error: 'No error', stack: ['07'] });
    expect(evaluate('0 IF 7 ELSE 8 ENDIF')).toEqual({ error: 'No error', stack: ['08'] });
    expect(evaluate("'abc' HASH160").stack).toEqual([hex(hash160(Buffer.from('abc')))]);
    expect(evaluate("'abc' SHA256").stack).toEqual(['ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad']);
    expect(evaluate("'abc' SHA1").stack).toEqual(['a9993e364706816aba3e25717850c26c9cd0d89d']);
    expect(evaluate("'abc' RIPEMD160").stack).toEqual(['8eb208f7e05d987a9b044a8e98c6b087f15a0bfc']);
    expect(evaluate('5 3 1 PICK 2 ROLL').stack).toEqual(['03', '05', '05']);
    expect(evaluate('0 NOT 7 1SUB 2 -1 WITHIN').stack).toEqual(['01', '']);
    expect(evaluate('7 1SUB 2 9 WITHIN').stack).toEqual(['01']);
  });

  it("stops with zcashd's error for each broken rule", () => {
    expect(evaluate('DUP').error).toBe('Operation not valid with the current stack size');
    expect(evaluate('FROMALTSTACK').error).toBe('Operation not valid with the current altstack size');
    expect(evaluate('1 IF').error).toBe('Invalid OP_IF construction');
    expect(evaluate('ELSE').error).toBe('Invalid OP_IF construction');
    expect(evaluate('RETURN').error).toBe('OP_RETURN was encountered');
    expect(evaluate('1 0 IF RETURN ENDIF').error).toBe('No error');
    expect(evaluate('1 2 EQUALVERIFY').error).toBe('Script failed an OP_EQUALVERIFY operation');
    expect(evaluate('0 VERIFY').error).toBe('Script failed an OP_VERIFY operation');
    expect(evaluate('1 2 NUMEQUALVERIFY').error).toBe('Script failed an OP_NUMEQUALVERIFY operation');
    expect(evaluate('0 IF MUL ENDIF').error).toBe('Attempted to use a disabled opcode');
    expect(evaluate('0 IF VERIF ENDIF').error).toBe('Opcode missing or not understood');
    expect(evaluate('RESERVED').error).toBe('Opcode missing or not understood');
    expect(evaluate('NOP1').error).toBe('NOPx reserved for soft-fork upgrades');
    expect(evaluate('NOP1', SCRIPT_VERIFY_P2SH).error).toBe('No error');
    expect(evaluate('0x01 0x05').error).toBe('Data push larger than necessary');
    expect(evaluate('0x4c').error).toBe('Opcode missing or not understood');
    expect(evaluate(Uint8Array.from([0x4d, 0x09, 0x02, ...new Uint8Array(521)])).error).toBe('Push value size limit exceeded');
    expect(evaluate(new Uint8Array(10_001)).error).toBe('Script is too big');
    expect(evaluate(new Uint8Array(202).fill(0x61)).error).toBe('Operation limit exceeded');
    // Pushes do not count as operations: 1,001 of them overflow the stack.
    expect(evaluate(new Uint8Array(1001).fill(0x51)).error).toBe('Stack size limit exceeded');
    expect(evaluate('0x05 0x0100000000 1ADD').error).toBe('unknown error');
    expect(evaluate('0 0 21 CHECKMULTISIG').error).toBe('Pubkey count negative or limit exceeded');
    expect(evaluate('0 2 0 1 CHECKMULTISIG').error).toBe('Signature count negative or greater than pubkey count');
    expect(evaluate('1 0 0 CHECKMULTISIG').error).toBe('Dummy CHECKMULTISIG argument must be zero');
    expect(evaluate('0 0 0 CHECKMULTISIGVERIFY').error).toBe('No error');
    expect(evaluate('-1 CHECKLOCKTIMEVERIFY').error).toBe('Negative locktime');
    expect(evaluate('1 CHECKLOCKTIMEVERIFY').error).toBe('Locktime requirement not satisfied');
  });

  it('holds signatures and keys to strict DER, low S, a defined hash type and a standard key', () => {
    const pubkey = (key: string) => `0x${(key.length / 2).toString(16)} 0x${key}`;
    const push = (h: string) => `0x${(h.length / 2).toString(16)} 0x${h}`;
    const accept = checkerAccepting(SIG);
    expect(verify(`${push(SIG)}`, `${pubkey(KEY)} CHECKSIG`, STANDARD_SCRIPT_VERIFY_FLAGS, accept)).toBe('No error');
    expect(verify(`${push(SIG)}`, `${pubkey(KEY)} CHECKSIG`)).toBe(
      'Script evaluated without error but finished with a false/empty top stack element',
    );
    expect(verify(`${push(SIG)}`, `${pubkey(KEY)} CHECKSIGVERIFY 1`)).toBe('Script failed an OP_CHECKSIGVERIFY operation');
    expect(verify(`${push(SIG.slice(0, -2) + '04')}`, `${pubkey(KEY)} CHECKSIG`)).toBe('Signature hash type missing or not understood');
    expect(verify(`${push('30' + SIG.slice(2, -6) + '01')}`, `${pubkey(KEY)} CHECKSIG`)).toBe('Non-canonical DER signature');
    expect(verify(`${push(SIG)}`, `${pubkey('05' + KEY.slice(2))} CHECKSIG`)).toBe('Public key is neither compressed or uncompressed');
    // The same signature with S replaced by n − S: high, which zcashd fails without an error of its own.
    const r = SIG.slice(8, 72);
    const s = BigInt('0x' + SIG.slice(76, 140));
    const highSig = '3045' + '0220' + r + '0221' + '00' + (ORDER - s).toString(16).padStart(64, '0') + '01';
    expect(checkSignatureEncoding(Buffer.from(highSig, 'hex'), STANDARD_SCRIPT_VERIFY_FLAGS)).toBe(1);
    expect(verify(`${push(highSig)}`, `${pubkey(KEY)} CHECKSIG`, STANDARD_SCRIPT_VERIFY_FLAGS, checkerAccepting(highSig))).toBe(
      'unknown error',
    );
    expect(verify(`${push(highSig)}`, `${pubkey(KEY)} CHECKSIG`, SCRIPT_VERIFY_P2SH, checkerAccepting(highSig))).toBe('No error');
  });
});

describe('VerifyScript', () => {
  const redeem = '1 1 ADD 2 EQUAL';
  const redeemBytes = S(redeem);
  const p2sh = `HASH160 0x14 0x${hex(hash160(redeemBytes))} EQUAL`;
  const pushRedeem = `0x${redeemBytes.length.toString(16).padStart(2, '0')} 0x${hex(redeemBytes)}`;

  it('runs a P2SH redeem script from the stack the scriptSig left', () => {
    expect(verify(pushRedeem, p2sh)).toBe('No error');
    expect(verify(`0x01 0x00 DROP ${pushRedeem}`, p2sh, SCRIPT_VERIFY_P2SH)).toBe('Only non-push operators allowed in signatures');
    expect(verify('0x01 0x11', p2sh)).toBe('Script evaluated without error but finished with a false/empty top stack element');
  });

  it('wants one element left under CLEANSTACK, which zcashd prints as "unknown error"', () => {
    expect(verify('1 1', '')).toBe('unknown error');
    expect(verify('1 1', '', SCRIPT_VERIFY_P2SH)).toBe('No error');
    expect(verify('1', '', SCRIPT_VERIFY_P2SH | SCRIPT_VERIFY_CLEANSTACK)).toBe('No error');
    expect(verify('', '')).toBe('Script evaluated without error but finished with a false/empty top stack element');
    expect(verify('0x01 0x80', '')).toBe('Script evaluated without error but finished with a false/empty top stack element');
  });
});
