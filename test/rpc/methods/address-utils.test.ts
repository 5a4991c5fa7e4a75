// validateaddress, z_validateaddress, z_listunifiedreceivers, decodescript, createmultisig and
// verifymessage: replies byte for byte, golden values from zcashd's tests (src/test/data,
// src/wallet/test/rpc_wallet_tests.cpp, qa/rpc-tests) and the zcash-test-vectors ZIP vectors.
import { createHash } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, TESTNET, type NetworkParams } from '../../../src/chain/network.js';
import { decodePaymentAddress } from '../../../src/codec/address/payment-address.js';
import { encodeTransparentAddress } from '../../../src/codec/script/address.js';
import { parseJson, type JsonValue } from '../../../src/json/index.js';
import { RpcError, type RpcMethod } from '../../../src/rpc/method.js';
import { decodeScriptMethod } from '../../../src/rpc/methods/rawtransaction/decodescript.js';
import { createMultisigMethod } from '../../../src/rpc/methods/util/createmultisig.js';
import { validateAddressMethod } from '../../../src/rpc/methods/util/validateaddress.js';
import { verifyMessageMethod } from '../../../src/rpc/methods/util/verifymessage.js';
import { zValidateAddressMethod } from '../../../src/rpc/methods/util/z_validateaddress.js';
import { zListUnifiedReceiversMethod } from '../../../src/rpc/methods/wallet/z_listunifiedreceivers.js';
import { readJsonVector } from '../../support/vectors.js';

type Outcome = { result: string } | { error: { code: number; message: string } };

/** Calls a method as the dispatcher does (support/call.ts), on any network. */
async function call(method: RpcMethod, paramsJson: string, network: NetworkParams = MAINNET): Promise<Outcome> {
  try {
    const raw = await method.call(parseJson(paramsJson) as JsonValue[], { network, requestStop: () => {} });
    return { result: typeof raw === 'string' ? raw : raw.toString('utf8') };
  } catch (e) {
    if (e instanceof RpcError) return { error: { code: e.code, message: e.message } };
    return { error: { code: -1, message: (e as Error).message } };
  }
}
const params = (...values: unknown[]): string => JSON.stringify(values);
const ok = (result: string): Outcome => ({ result });
const err = (code: number, message: string): Outcome => ({ error: { code, message } });

const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');
/** HASH160 by node:crypto, independent of src/crypto. */
const hash160 = (b: Uint8Array): Uint8Array => createHash('ripemd160').update(createHash('sha256').update(b).digest()).digest();
const sha256d = (b: Uint8Array): Uint8Array => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();

const zValidateAddress = zValidateAddressMethod();

type Base58Row = [string, string, { isPrivkey: boolean; chain: 'mainnet' | 'testnet' }];
const base58Addresses = readJsonVector<Base58Row[]>('zcashd', 'base58_keys_valid.json').filter((r) => !r[2].isPrivkey);

type UaRow = [string | null, string | null, string | null, string | null, number | null, string | null, string];
const uaRows = readJsonVector<unknown[][]>('zip', 'json', 'unified_address.json').slice(2) as UaRow[];
const networkOfUa = (ua: string): NetworkParams => (ua.startsWith('utest') ? TESTNET : ua.startsWith('uregtest') ? REGTEST : MAINNET);

describe('validateaddress', () => {
  it.each(base58Addresses)('%s (zcashd base58_keys_valid.json)', async (address, script, meta) => {
    const network = meta.chain === 'mainnet' ? MAINNET : TESTNET;
    const isScript = script.startsWith('a914');
    expect(await call(validateAddressMethod, params(address), network)).toEqual(
      ok(`{"isvalid":true,"address":"${address}","scriptPubKey":"${script}","ismine":false,"iswatchonly":false,"isscript":${isScript}}`),
    );
    expect(await call(validateAddressMethod, params(address), meta.chain === 'mainnet' ? TESTNET : MAINNET)).toEqual(
      ok('{"isvalid":false}'),
    );
  });

  it('qa/rpc-tests/disablewallet.py on regtest', async () => {
    expect(await call(validateAddressMethod, params('t3b1jtLvxCstdo1pJs9Tjzc5dmWyvGQSZj8'), REGTEST)).toEqual(ok('{"isvalid":false}'));
    const valid = await call(validateAddressMethod, params('tmGqwWtL7RsbxikDSN26gsbicxVr2xJNe86'), REGTEST);
    expect('result' in valid && JSON.parse(valid.result).isvalid).toBe(true);
  });

  it('prints the address re-encoded (whitespace zcashd skips is gone)', async () => {
    const [address, script] = base58Addresses[0]!;
    const out = await call(validateAddressMethod, params(`  ${address}\n`));
    expect(out).toEqual(
      ok(`{"isvalid":true,"address":"${address}","scriptPubKey":"${script}","ismine":false,"iswatchonly":false,"isscript":false}`),
    );
  });

  it('shielded and unified addresses, junk and huge strings are not valid', async () => {
    for (const s of [
      'zs1z7rejlpsa98s2rrrfkwmaxu53e4ue0ulcrw0h4x5g8jl04tak0d3mm47vdtahatqrlkngh9slya',
      uaRows[0]![6],
      '',
      't1',
      '1'.repeat(100_000),
    ]) {
      expect(await call(validateAddressMethod, params(s))).toEqual(ok('{"isvalid":false}'));
    }
  });

  it('wrong types: -1 as UniValue get_str', async () => {
    for (const p of ['[5]', '[null]', '[["t1"]]', '[{}]', '[true]']) {
      expect(await call(validateAddressMethod, p)).toEqual(err(-1, 'JSON value is not a string as expected'));
    }
  });
});

describe('z_validateaddress', () => {
  it('Sprout (rpc_wallet_tests.cpp golden keys)', async () => {
    const a = 'zcWsmqT4X2V4jgxbgiCzyrAfRT1vi1F4sn7M5Pkh66izzw8Uk7LBGAH3DtcSMJeUb2pi3W4SQF8LMKkU2cUuVP68yAGcomL';
    expect(await call(zValidateAddress, params(a))).toEqual(
      ok(
        `{"isvalid":true,"address":"${a}","address_type":"sprout",` +
          '"payingkey":"f5bb3c888ccc9831e3f6ba06e7528e26a312eec3acc1823be8918b6a3a5e20ad",' +
          '"transmissionkey":"7a58c7132446564e6b810cf895c20537b3528357dc00150a8e201f491efa9c1a","ismine":false}',
      ),
    );
    const other = 'ztaaga95QAPyp1kSQ1hD2kguCpzyMHjxWZqaYDEkzbvo7uYQYAw2S8X4Kx98AvhhofMtQL8PAXKHuZsmhRcanavKRKmdCzk';
    expect(await call(zValidateAddress, params(other))).toEqual(ok('{"isvalid":false}'));
  });

  it('Sapling (rpc_wallet_tests.cpp golden keys)', async () => {
    const a = 'zs1z7rejlpsa98s2rrrfkwmaxu53e4ue0ulcrw0h4x5g8jl04tak0d3mm47vdtahatqrlkngh9slya';
    expect(await call(zValidateAddress, params(a))).toEqual(
      ok(
        `{"isvalid":true,"address":"${a}","address_type":"sapling","diversifier":"1787997c30e94f050c634d",` +
          '"diversifiedtransmissionkey":"34ed1f60f5db5763beee1ddbb37dd5f7e541d4d4fbdcc09fbfcc6b8e949bbe9d","ismine":false}',
      ),
    );
    const other = 'ztestsapling1knww2nyjc62njkard0jmx7hlsj6twxmxwprn7anvrv4dc2zxanl3nemc0qx2hvplxmd2uau8gyw';
    expect(await call(zValidateAddress, params(other))).toEqual(ok('{"isvalid":false}'));
  });

  it('transparent addresses', async () => {
    for (const [address, script, meta] of base58Addresses.filter((r) => r[2].chain === 'mainnet')) {
      const type = script.startsWith('a914') ? 'p2sh' : 'p2pkh';
      expect(await call(zValidateAddress, params(address), meta.chain === 'mainnet' ? MAINNET : TESTNET)).toEqual(
        ok(`{"isvalid":true,"address":"${address}","address_type":"${type}","ismine":false}`),
      );
    }
  });

  it.each(uaRows.map((r, i) => [i, r[6]] as const))('unified address vector %i', async (_i, ua) => {
    expect(await call(zValidateAddress, params(ua), networkOfUa(ua))).toEqual(
      ok(`{"isvalid":true,"address":"${ua}","address_type":"unified"}`),
    );
  });

  it('TEX addresses (ZIP 320) do not decode in zcashd v6.12.2', async () => {
    const rows = readJsonVector<unknown[][]>('zip', 'json', 'zip_0320.json').slice(2) as [string, string, string][];
    for (const [, , tex] of rows) expect(await call(zValidateAddress, params(tex))).toEqual(ok('{"isvalid":false}'));
  });

  it('echoes the string as given, escaped, and prints the deprecated type under -allowdeprecated=addrtype', async () => {
    const ua = uaRows.find((r) => networkOfUa(r[6]) === MAINNET)![6];
    expect(await call(zValidateAddress, params(` ${ua}\t`))).toEqual(ok(`{"isvalid":true,"address":" ${ua}\\t","address_type":"unified"}`));
    expect(await call(zValidateAddressMethod({ addrTypeField: true }), params(ua))).toEqual(
      ok(`{"isvalid":true,"address":"${ua}","address_type":"unified","type":"unified"}`),
    );
  });

  it('bad input', async () => {
    expect(await call(zValidateAddress, '[1]')).toEqual(err(-1, 'JSON value is not a string as expected'));
    expect(await call(zValidateAddress, params('u1' + 'q'.repeat(200_000)))).toEqual(ok('{"isvalid":false}'));
    expect(await call(zValidateAddress, params('\u00e9zs1'))).toEqual(ok('{"isvalid":false}'));
  });
});

describe('z_listunifiedreceivers', () => {
  it.each(uaRows.map((r, i) => [i, r] as const))('unified address vector %i', async (_i, row) => {
    const [p2pkh, p2sh, sapling, orchard, , , ua] = row;
    const network = networkOfUa(ua);
    const out = await call(zListUnifiedReceiversMethod, params(ua), network);
    expect('result' in out).toBe(true);
    if (!('result' in out)) return;
    const reply = JSON.parse(out.result) as Record<string, string>;
    const expectedKeys = [orchard && 'orchard', sapling && 'sapling', p2sh && 'p2sh', p2pkh && 'p2pkh'].filter(Boolean);
    expect(Object.keys(reply)).toEqual(expectedKeys);
    if (orchard !== null) {
      const single = decodePaymentAddress(reply['orchard']!, network);
      expect(single?.kind === 'unified' && single.receivers.map((r) => [r.typecode, hexOf(r.data)])).toEqual([[3, orchard]]);
    }
    if (sapling !== null) {
      const s = decodePaymentAddress(reply['sapling']!, network);
      expect(s?.kind === 'sapling' && hexOf(s.diversifier) + hexOf(s.transmissionKey)).toBe(sapling);
    }
    if (p2pkh !== null) expect(reply['p2pkh']).toBe(encodeTransparentAddress('p2pkh', hex(p2pkh), network));
    if (p2sh !== null) expect(reply['p2sh']).toBe(encodeTransparentAddress('p2sh', hex(p2sh), network));
  });

  it('errors: -5 Invalid address, -8 not a unified address, -1 not a string', async () => {
    expect(await call(zListUnifiedReceiversMethod, params('u1qqqq'))).toEqual(err(-5, 'Invalid address'));
    // A mainnet address on testnet.
    expect(await call(zListUnifiedReceiversMethod, params(uaRows[0]![6]), TESTNET)).toEqual(err(-5, 'Invalid address'));
    expect(
      await call(zListUnifiedReceiversMethod, params('zs1z7rejlpsa98s2rrrfkwmaxu53e4ue0ulcrw0h4x5g8jl04tak0d3mm47vdtahatqrlkngh9slya')),
    ).toEqual(err(-8, 'Address is not a unified address'));
    expect(await call(zListUnifiedReceiversMethod, params(base58Addresses[0]![0]))).toEqual(err(-8, 'Address is not a unified address'));
    expect(await call(zListUnifiedReceiversMethod, '[[]]')).toEqual(err(-1, 'JSON value is not a string as expected'));
  });
});

describe('decodescript (qa/rpc-tests/decodescript.py)', () => {
  const signature =
    '304502207fa7a6d1e0ee81132a269ad84e68d695483745cde8b541e3bf630749894e342a022100c1f7ab20e13e22fb95281a870f3dcf38d782e53023ee313d741ad0cfbc0c509001';
  const publicKey = '03b0da749730dc9b4b1f4a14d6902877a92541f5368778853d9c4a0cb7802dcfb2';
  const keyHash = '11695b6cd891484c2d49ec5aa738ec2b2f897777';
  const p2shOf = (scriptHex: string): string => encodeTransparentAddress('p2sh', hash160(hex(scriptHex)), MAINNET);
  const asmOf = async (scriptHex: string): Promise<unknown> => {
    const out = await call(decodeScriptMethod, params(scriptHex));
    return 'result' in out ? JSON.parse(out.result).asm : out;
  };

  it('scriptSig asm, never sighash-decoded', async () => {
    expect(await asmOf('48' + signature)).toBe(signature);
    expect(await asmOf('48' + signature + '21' + publicKey)).toBe(`${signature} ${publicKey}`);
    expect(await asmOf('00' + '48' + signature + '48' + signature)).toBe(`0 ${signature} ${signature}`);
    expect(await asmOf('5100')).toBe('1 0');
    expect(await asmOf('6a48' + signature)).toBe('OP_RETURN ' + signature);
    expect(await asmOf('63' + '21' + publicKey + 'ad670320a107b17568' + '21' + publicKey + 'ac')).toBe(
      `OP_IF ${publicKey} OP_CHECKSIGVERIFY OP_ELSE 500000 OP_NOP2 OP_DROP OP_ENDIF ${publicKey} OP_CHECKSIG`,
    );
  });

  it('standard scriptPubKeys: the whole reply', async () => {
    const keyAddress = encodeTransparentAddress('p2pkh', hex(keyHash), MAINNET);
    const p2pk = '21' + publicKey + 'ac';
    const pkAddress = encodeTransparentAddress('p2pkh', hash160(hex(publicKey)), MAINNET);
    expect(await call(decodeScriptMethod, params(p2pk))).toEqual(
      ok(`{"asm":"${publicKey} OP_CHECKSIG","reqSigs":1,"type":"pubkey","addresses":["${pkAddress}"],"p2sh":"${p2shOf(p2pk)}"}`),
    );
    const p2pkh = '76a914' + keyHash + '88ac';
    expect(await call(decodeScriptMethod, params(p2pkh))).toEqual(
      ok(
        `{"asm":"OP_DUP OP_HASH160 ${keyHash} OP_EQUALVERIFY OP_CHECKSIG","reqSigs":1,"type":"pubkeyhash",` +
          `"addresses":["${keyAddress}"],"p2sh":"${p2shOf(p2pkh)}"}`,
      ),
    );
    const multisig = '52' + ('21' + publicKey).repeat(3) + '53ae';
    expect(await call(decodeScriptMethod, params(multisig))).toEqual(
      ok(
        `{"asm":"2 ${publicKey} ${publicKey} ${publicKey} 3 OP_CHECKMULTISIG","reqSigs":2,"type":"multisig",` +
          `"addresses":["${pkAddress}","${pkAddress}","${pkAddress}"],"p2sh":"${p2shOf(multisig)}"}`,
      ),
    );
    const p2sh = 'a914' + keyHash + '87';
    const scriptAddress = encodeTransparentAddress('p2sh', hex(keyHash), MAINNET);
    expect(await call(decodeScriptMethod, params(p2sh))).toEqual(
      ok(
        `{"asm":"OP_HASH160 ${keyHash} OP_EQUAL","reqSigs":1,"type":"scripthash","addresses":["${scriptAddress}"],"p2sh":"${p2shOf(p2sh)}"}`,
      ),
    );
    expect(await call(decodeScriptMethod, params('6a0401020304'))).toEqual(
      ok(`{"asm":"OP_RETURN 67305985","type":"nulldata","p2sh":"${p2shOf('6a0401020304')}"}`),
    );
  });

  it('the empty script is valid; a truncated push is [error] and nonstandard', async () => {
    // HASH160 of nothing is b472a266d0bd89c13706a4132ccfb16f7c3b9fcb.
    expect(hexOf(hash160(new Uint8Array(0)))).toBe('b472a266d0bd89c13706a4132ccfb16f7c3b9fcb');
    expect(await call(decodeScriptMethod, params(''))).toEqual(ok(`{"asm":"","type":"nonstandard","p2sh":"${p2shOf('')}"}`));
    expect(await call(decodeScriptMethod, params('4c05ff'))).toEqual(
      ok(`{"asm":"[error]","type":"nonstandard","p2sh":"${p2shOf('4c05ff')}"}`),
    );
  });

  it('bad input: -3 for a non-string, -8 for non-hex', async () => {
    expect(await call(decodeScriptMethod, '[5]')).toEqual(err(-3, 'Expected type string, got number'));
    expect(await call(decodeScriptMethod, '[null]')).toEqual(err(-3, 'Expected type string, got null'));
    expect(await call(decodeScriptMethod, '[["00"]]')).toEqual(err(-3, 'Expected type string, got array'));
    expect(await call(decodeScriptMethod, params('0'))).toEqual(err(-8, "argument must be hexadecimal string (not '0')"));
    expect(await call(decodeScriptMethod, params('zz'))).toEqual(err(-8, "argument must be hexadecimal string (not 'zz')"));
  });
});

describe('createmultisig', () => {
  const k1 = '03b0da749730dc9b4b1f4a14d6902877a92541f5368778853d9c4a0cb7802dcfb2';
  const g = '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
  const gUncompressed =
    '79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8';

  it('2 of 2: the P2SH address and redeem script', async () => {
    const script = '52' + '21' + k1 + '21' + g + '52ae';
    const address = encodeTransparentAddress('p2sh', hash160(hex(script)), MAINNET);
    expect(await call(createMultisigMethod, `[2, ${params(k1, g)}]`)).toEqual(ok(`{"address":"${address}","redeemScript":"${script}"}`));
  });

  it('uncompressed and hybrid keys: 06 for even y is accepted, 07 is not', async () => {
    const script = '51' + '41' + '04' + gUncompressed + '41' + '06' + gUncompressed + '52ae';
    const address = encodeTransparentAddress('p2sh', hash160(hex(script)), TESTNET);
    expect(await call(createMultisigMethod, `[1, ${params('04' + gUncompressed, '06' + gUncompressed)}]`, TESTNET)).toEqual(
      ok(`{"address":"${address}","redeemScript":"${script}"}`),
    );
    expect(await call(createMultisigMethod, `[1, ${params('07' + gUncompressed)}]`)).toEqual(
      err(-1, ' Invalid public key: 07' + gUncompressed),
    );
  });

  it('zcashd’s errors in its order', async () => {
    expect(await call(createMultisigMethod, `["2", ${params(k1)}]`)).toEqual(err(-1, 'JSON value is not an integer as expected'));
    expect(await call(createMultisigMethod, `[2, "${k1}"]`)).toEqual(err(-1, 'JSON value is not an array as expected'));
    expect(await call(createMultisigMethod, `[0, []]`)).toEqual(
      err(-1, 'a multisignature address must require at least one key to redeem'),
    );
    expect(await call(createMultisigMethod, `[3, ${params(k1, g)}]`)).toEqual(
      err(-1, 'not enough keys supplied (got 2 keys, but need at least 3 to redeem)'),
    );
    const many = JSON.stringify(new Array(100_000).fill(k1));
    expect(await call(createMultisigMethod, `[1, ${many}]`)).toEqual(
      err(-1, 'Number of addresses involved in the multisignature address creation > 16\nReduce the number'),
    );
    expect(await call(createMultisigMethod, `[1, [${k1.length}]]`)).toEqual(err(-1, 'JSON value is not a string as expected'));
    // Without a wallet an address is not a key.
    const taddr = base58Addresses[0]![0];
    expect(await call(createMultisigMethod, `[1, ${params(taddr)}]`)).toEqual(err(-1, ` Invalid public key: ${taddr}`));
    expect(await call(createMultisigMethod, `[1, ${params('02' + 'ff'.repeat(32))}]`)).toEqual(
      err(-1, ` Invalid public key: 02${'ff'.repeat(32)}`),
    );
    expect(await call(createMultisigMethod, `[1, ${params(k1 + '00')}]`)).toEqual(err(-1, ` Invalid public key: ${k1}00`));
    const sixteen = JSON.stringify(new Array(16).fill('04' + gUncompressed));
    expect(await call(createMultisigMethod, `[1, ${sixteen}]`)).toEqual(err(-1, 'redeemScript exceeds size limit: 1059 > 520'));
  });
});

describe('verifymessage', () => {
  const secret = hex('00'.repeat(31) + '07');
  const compressedKey = secp256k1.getPublicKey(secret, true);
  const uncompressedKey = secp256k1.getPublicKey(secret, false);
  const compressedAddress = encodeTransparentAddress('p2pkh', hash160(compressedKey), MAINNET);
  const uncompressedAddress = encodeTransparentAddress('p2pkh', hash160(uncompressedKey), MAINNET);

  /** signmessage: 27 + recovery id (+ 4 for a compressed key), r, s — over an independently built hash. */
  function signMessage(message: string, compressed: boolean): string {
    const magic = Buffer.from('Zcash Signed Message:\n');
    const body = Buffer.from(message, 'utf8');
    expect(body.length).toBeLessThan(253);
    const hash = sha256d(Buffer.concat([Buffer.of(magic.length), magic, Buffer.of(body.length), body]));
    const sig = secp256k1.sign(hash, secret, { prehash: false, format: 'recovered' });
    const header = 27 + sig[0]! + (compressed ? 4 : 0);
    return Buffer.concat([Buffer.of(header), sig.subarray(1)]).toString('base64');
  }

  it('accepts the signer’s signature and refuses another message or address', async () => {
    const sig = signMessage('mymessage', true);
    expect(await call(verifyMessageMethod, params(compressedAddress, sig, 'mymessage'))).toEqual(ok('true'));
    expect(await call(verifyMessageMethod, params(compressedAddress, sig, 'wrongmessage'))).toEqual(ok('false'));
    expect(await call(verifyMessageMethod, params(uncompressedAddress, sig, 'mymessage'))).toEqual(ok('false'));
    const uncompressedSig = signMessage('héllo ✓', false);
    expect(await call(verifyMessageMethod, params(uncompressedAddress, uncompressedSig, 'héllo ✓'))).toEqual(ok('true'));
    expect(await call(verifyMessageMethod, params(compressedAddress, uncompressedSig, 'héllo ✓'))).toEqual(ok('false'));
  });

  it('signatures that do not recover are false, not errors', async () => {
    expect(await call(verifyMessageMethod, params(compressedAddress, 'AAAA', 'm'))).toEqual(ok('false'));
    const zeros = Buffer.alloc(65).toString('base64');
    expect(await call(verifyMessageMethod, params(compressedAddress, zeros, 'm'))).toEqual(ok('false'));
    const overflow = Buffer.concat([Buffer.of(31), Buffer.alloc(64, 0xff)]).toString('base64');
    expect(await call(verifyMessageMethod, params(compressedAddress, overflow, 'm'))).toEqual(ok('false'));
    expect(await call(verifyMessageMethod, params(compressedAddress, '', 'm'))).toEqual(ok('false'));
  });

  it('errors (rpc_wallet_tests.cpp’s illegal address among them)', async () => {
    const sig = signMessage('mymessage', true);
    expect(await call(verifyMessageMethod, params('t1VtArtnn1dGPiD2WFfMXYXW5mHM3q1Gpg', sig, 'mymessage'))).toEqual(
      err(-3, 'Invalid address'),
    );
    const p2sh = base58Addresses.find((r) => r[2].chain === 'mainnet' && r[1].startsWith('a914'))![0];
    expect(await call(verifyMessageMethod, params(p2sh, sig, 'mymessage'))).toEqual(err(-3, 'Address does not refer to key'));
    for (const bad of ['abc', 'AAAA=', 'AA=A', 'AAAA====', '%%%%', 'AB==']) {
      expect(await call(verifyMessageMethod, params(compressedAddress, bad, 'm'))).toEqual(err(-5, 'Malformed base64 encoding'));
    }
    expect(await call(verifyMessageMethod, `["${compressedAddress}", 5, "m"]`)).toEqual(err(-1, 'JSON value is not a string as expected'));
  });
});
