// ScriptToAsmStr rules from transaction-format.md §4.1–§4.3, example by example.
import { describe, expect, it } from 'vitest';
import { scriptToAsm, writeScriptAsm } from '../../src/codec/script/index.js';
import { opcodeName } from '../../src/codec/script/opcodes.js';

const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const asm = (s: string, sighash = false): string => scriptToAsm(hex(s), sighash);

// A real strict-DER signature body (block-1-pubkey example of §3.11) without its hash-type byte.
const DER_BODY =
  '3045022100800102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f' +
  '02201f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e';
const PUBKEY = '027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875';
/** A scriptSig `<sig> <pubkey>` with the given hash-type byte appended to the signature. */
const scriptSig = (body: string, hashType: string): string => {
  const sig = body + hashType;
  return (sig.length / 2).toString(16).padStart(2, '0') + sig + '21' + PUBKEY;
};

describe('tokenizing and [error] (§4.1, §4.2 rule 1)', () => {
  it('renders the empty script as the empty string', () => {
    expect(asm('')).toBe('');
  });
  it.each([
    ['4c', '[error]'],
    ['76 4c', 'OP_DUP [error]'],
    ['02 aa', '[error]'],
    ['4d 01', '[error]'], // PUSHDATA2 length needs 2 bytes
    ['4d 0100', '[error]'], // declares 1 byte, none follow
    ['4e 010000', '[error]'], // PUSHDATA4 length needs 4 bytes
    ['4e ffffffff 00', '[error]'], // 4 GiB declared
    ['51 4c 05 0102', '1 [error]'],
    ['76 a9 14 0102030405', 'OP_DUP OP_HASH160 [error]'],
  ])('%s → %s', (script, expected) => {
    expect(asm(script)).toBe(expected);
    expect(asm(script, true)).toBe(expected);
  });
});

describe('push rendering (§4.2 rule 2)', () => {
  it.each([
    ['00', '0'],
    ['01 05', '5'],
    ['01 80', '0'],
    ['01 81', '-1'],
    ['01 ff', '-127'],
    ['02 0001', '256'],
    ['02 0080', '0'],
    ['02 ff7f', '32767'],
    ['02 ffff', '-32767'],
    ['03 000080', '0'],
    ['04 ffffffff', '-2147483647'],
    ['04 ffffff7f', '2147483647'],
    ['04 00000080', '0'],
    ['04 01000080', '-1'],
    ['4c 01 07', '7'],
    ['4c 00', '0'],
    ['4d 0000', '0'],
    ['4e 00000000', '0'],
    ['4d 0200 e803', '1000'],
    ['05 0102030405', '0102030405'],
    ['4c 05 0102030405', '0102030405'],
    ['4e 05000000 ffffffffff', 'ffffffffff'],
  ])('%s → %s', (script, expected) => {
    expect(asm(script)).toBe(expected);
  });

  it('joins tokens with single spaces, coinbase-style height push', () => {
    // Real mainnet block 1 coinbase scriptSig: OP_1 OP_0.
    expect(asm('5100')).toBe('1 0');
    // A height push like later coinbases use: 03 a0bb0d = 900000.
    expect(asm('03a0bb0d')).toBe('900000');
  });
});

describe('opcode names (§4.2 table)', () => {
  it.each([
    [0x4f, '-1'],
    [0x50, 'OP_RESERVED'],
    [0x51, '1'],
    [0x60, '16'],
    [0x61, 'OP_NOP'],
    [0x62, 'OP_VER'],
    [0x6a, 'OP_RETURN'],
    [0x6b, 'OP_TOALTSTACK'],
    [0x7d, 'OP_TUCK'],
    [0x7e, 'OP_CAT'],
    [0x82, 'OP_SIZE'],
    [0x83, 'OP_INVERT'],
    [0x89, 'OP_RESERVED1'],
    [0x8a, 'OP_RESERVED2'],
    [0x8b, 'OP_1ADD'],
    [0xa5, 'OP_WITHIN'],
    [0xa6, 'OP_RIPEMD160'],
    [0xab, 'OP_CODESEPARATOR'],
    [0xaf, 'OP_CHECKMULTISIGVERIFY'],
    [0xb0, 'OP_NOP1'],
    [0xb1, 'OP_NOP2'],
    [0xb2, 'OP_NOP3'],
    [0xb9, 'OP_NOP10'],
    [0xba, 'OP_UNKNOWN'],
    [0xfe, 'OP_UNKNOWN'],
    [0xff, 'OP_INVALIDOPCODE'],
  ])('0x%s prints %s', (byte, name) => {
    expect(asm(byte.toString(16).padStart(2, '0'))).toBe(name);
  });

  it('covers every byte 0x4f..0xff with a name and 0xB1 is never CHECKLOCKTIMEVERIFY', () => {
    const all = Array.from({ length: 0xff - 0x4f + 1 }, (_, i) => asm((0x4f + i).toString(16)));
    expect(all.every((s) => s.length > 0 && !s.includes(' '))).toBe(true);
    expect(all.filter((s) => s === 'OP_UNKNOWN')).toHaveLength(0xfe - 0xba + 1);
    expect(all).not.toContain('OP_CHECKLOCKTIMEVERIFY');
    expect(all.slice(0x51 - 0x4f, 0x61 - 0x4f)).toEqual(Array.from({ length: 16 }, (_, i) => String(i + 1)));
  });

  it('names the push opcodes like GetOpName (never reached by asm)', () => {
    expect(opcodeName(0x00)).toBe('0');
    expect(opcodeName(0x4c)).toBe('OP_PUSHDATA1');
    expect(opcodeName(0x4e)).toBe('OP_PUSHDATA4');
    expect(opcodeName(0x14)).toBe('OP_UNKNOWN');
  });

  it('renders a CLTV-style script with OP_NOP2', () => {
    expect(asm('03 a08601 b1 75 76a914' + '11'.repeat(20) + '88ac')).toBe(
      `100000 OP_NOP2 OP_DROP OP_DUP OP_HASH160 ${'11'.repeat(20)} OP_EQUALVERIFY OP_CHECKSIG`,
    );
  });
});

describe('sighash decoding (§4.3)', () => {
  it.each([
    ['01', '[ALL]'],
    ['02', '[NONE]'],
    ['03', '[SINGLE]'],
    ['81', '[ALL|ANYONECANPAY]'],
    ['82', '[NONE|ANYONECANPAY]'],
    ['83', '[SINGLE|ANYONECANPAY]'],
  ])('hash type %s → %s', (hashType, suffix) => {
    expect(asm(scriptSig(DER_BODY, hashType), true)).toBe(`${DER_BODY}${suffix} ${PUBKEY}`);
    // Off (scriptPubKeys, coinbase): the hash-type byte stays in the hex, no suffix.
    expect(asm(scriptSig(DER_BODY, hashType), false)).toBe(`${DER_BODY}${hashType} ${PUBKEY}`);
  });

  it.each(['00', '04', '80', '84', 'c1', 'ff', '41'])('undefined hash type %s → plain hex', (hashType) => {
    expect(asm(scriptSig(DER_BODY, hashType), true)).toBe(`${DER_BODY}${hashType} ${PUBKEY}`);
  });

  it('reproduces worked example 2 (§3.11) scriptSig asm', () => {
    expect(asm(scriptSig(DER_BODY, '01'), true)).toBe(
      '3045022100800102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f02201f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e[ALL] 027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875',
    );
  });

  // Each mutation breaks exactly one BIP66 rule; none may get a suffix.
  const mutate = (body: string, at: number, byte: string): string => body.slice(0, at * 2) + byte + body.slice(at * 2 + 2);
  it.each([
    ['wrong sequence marker', mutate(DER_BODY, 0, '31')],
    ['wrong total length', mutate(DER_BODY, 1, '44')],
    ['R marker not 0x02', mutate(DER_BODY, 2, '03')],
    ['S marker not 0x02', mutate(DER_BODY, 4 + 0x21, '03')],
    ['R negative (no 00 pad)', '3044' + '0220' + '81' + '00'.repeat(31) + '0220' + '11'.repeat(32)],
    ['R superfluous 00 pad', '3045' + '0221' + '00' + '11'.repeat(32) + '0220' + '11'.repeat(32)],
    ['S negative', '3044' + '0220' + '11'.repeat(32) + '0220' + '81' + '00'.repeat(31)],
    ['S superfluous 00 pad', '3045' + '0220' + '11'.repeat(32) + '0221' + '00' + '11'.repeat(32)],
    ['R length zero', '3024' + '0200' + '0220' + '11'.repeat(32) + '00'],
  ])('%s → no suffix', (_name, body) => {
    const script = scriptSig(body, '01');
    expect(asm(script, true)).toBe(`${body}01 ${PUBKEY}`);
  });

  it('accepts R with a needed 00 pad, short R/S, and no low-S requirement', () => {
    const padded = '3045' + '0221' + '0080' + '11'.repeat(31) + '0220' + '7f' + 'ff'.repeat(31);
    expect(asm(scriptSig(padded, '01'), true)).toBe(`${padded}[ALL] ${PUBKEY}`);
    // Minimum size 9: 30 06 02 01 01 02 01 01 + hashtype.
    expect(asm('09 300602010102010101', true)).toBe('3006020101020101[ALL]');
    // Size 8 is too short for DER.
    expect(asm('08 3005020101020001', true)).toBe('3005020101020001');
  });

  it('enforces the 73-byte maximum', () => {
    // 74 bytes: R 33 bytes (padded), S 34 bytes with pad → structurally consistent but too long.
    const body = '3047' + '0221' + '0080' + '11'.repeat(31) + '0222' + '0080' + '11'.repeat(32);
    expect(body.length / 2 + 1).toBe(74);
    expect(asm(scriptSig(body, '01'), true)).toBe(`${body}01 ${PUBKEY}`);
  });

  it('never treats public keys as signatures', () => {
    expect(asm('21' + PUBKEY, true)).toBe(PUBKEY);
    const uncompressed = '04' + 'ab'.repeat(64);
    expect(asm('41' + uncompressed, true)).toBe(uncompressed);
  });

  it('skips decoding in unspendable scripts (leading OP_RETURN or > 10000 bytes)', () => {
    const sig = DER_BODY + '01';
    const push = '48' + sig;
    expect(asm('6a' + push, true)).toBe(`OP_RETURN ${sig}`);
    // 10000 bytes is still spendable; 10001 is not.
    const filler = (n: number): string => '61'.repeat(n);
    const pushLen = push.length / 2;
    const at10000 = asm(push + filler(10_000 - pushLen), true);
    expect(at10000.startsWith(`${DER_BODY}[ALL] OP_NOP`)).toBe(true);
    const at10001 = asm(push + filler(10_001 - pushLen), true);
    expect(at10001.startsWith(`${sig} OP_NOP`)).toBe(true);
  });

  it('decodes signatures pushed with PUSHDATA forms too', () => {
    const sig = DER_BODY + '81';
    expect(asm('4c48' + sig, true)).toBe(`${DER_BODY}[ALL|ANYONECANPAY]`);
    expect(asm('4d4800' + sig, true)).toBe(`${DER_BODY}[ALL|ANYONECANPAY]`);
  });

  it('multisig scriptSig: OP_0 then two signatures', () => {
    const sig1 = DER_BODY + '01';
    const sig2 = DER_BODY + '03';
    expect(asm('00 48' + sig1 + ' 48' + sig2, true)).toBe(`0 ${DER_BODY}[ALL] ${DER_BODY}[SINGLE]`);
  });
});

describe('robustness', () => {
  it('handles a view into a larger buffer (zero-copy scripts)', () => {
    const outer = hex('ffff 76a914' + '22'.repeat(20) + '88ac ffff');
    const view = outer.subarray(2, outer.length - 2);
    expect(scriptToAsm(view, false)).toBe(`OP_DUP OP_HASH160 ${'22'.repeat(20)} OP_EQUALVERIFY OP_CHECKSIG`);
  });

  it('renders a script given as a range of a larger buffer exactly as the script alone', () => {
    // The bytes after the range must never be read: a truncated push ends in [error] even when
    // the bytes that follow would complete it, and OP_RETURN counts only at the range's start.
    const asmOfRange = (buf: Uint8Array, start: number, end: number, flag: boolean): string => {
      let out = '';
      const sink = {
        text: (t: string) => (out += t),
        hex: (b: Uint8Array, from: number, to: number) => (out += Buffer.from(b.subarray(from, to)).toString('hex')),
      };
      writeScriptAsm(buf, flag, sink, start, end);
      return out;
    };
    const sig = '30440220' + '11'.repeat(32) + '0220' + '22'.repeat(32) + '01';
    const cases = ['4c', '4d 0100', '02 aa', `47${sig} 21${'02'.repeat(33)}`, `6a 47${sig}`, ''];
    for (const script of cases) {
      const inner = hex(script);
      const buf = hex('6a 4c ff' + script.replace(/ /g, '') + 'aaaaaaaaaaaaaaaa');
      for (const flag of [false, true]) {
        expect(asmOfRange(buf, 3, 3 + inner.length, flag)).toBe(scriptToAsm(inner, flag));
      }
    }
    let seed = 777;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
    for (let n = 0; n < 2000; n++) {
      const buf = Uint8Array.from({ length: 8 + (rnd() % 64) }, rnd);
      const start = rnd() % 4;
      const end = start + (rnd() % (buf.length - start - 3));
      for (const flag of [false, true]) {
        expect(asmOfRange(buf, start, end, flag)).toBe(scriptToAsm(buf.slice(start, end), flag));
      }
    }
  });

  it('renders random byte strings without throwing and ends with [error] only at the end', () => {
    let seed = 12345;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
    for (let n = 0; n < 2000; n++) {
      const bytes = Uint8Array.from({ length: rnd() % 64 }, rnd);
      for (const flag of [false, true]) {
        const s = scriptToAsm(bytes, flag);
        expect(typeof s).toBe('string');
        const err = s.indexOf('[error]');
        if (err >= 0) expect(err).toBe(s.length - '[error]'.length);
      }
    }
  });
});
