// Shielded and unified address codecs (codec/address/, crypto/f4jumble.ts, crypto/receivers.ts)
// against the zcash-test-vectors ZIP 316/320 and key-component vectors and zcashd's own tests.
import { createHash } from 'node:crypto';
import { blake2b } from '@noble/hashes/blake2.js';
import fc from 'fast-check';
import { jubjub } from '@noble/curves/misc.js';
import { describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, TESTNET, type NetworkParams } from '../../src/chain/network.js';
import { convertBits, decodeBech32Strict, decodeBech32Zcashd, encodeBech32 } from '../../src/codec/address/bech32.js';
import {
  decodePaymentAddress,
  decodeTexAddress,
  encodeSaplingAddress,
  encodeTexAddress,
  encodeUnified,
} from '../../src/codec/address/payment-address.js';
import { decodeUnifiedAddress, encodeUnifiedAddress } from '../../src/codec/address/unified.js';
import { f4jumble, f4jumbleInverse } from '../../src/crypto/f4jumble.js';
import { isValidOrchardReceiver, isValidSaplingReceiver } from '../../src/crypto/receivers.js';
import { readJsonVector } from '../support/vectors.js';

const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');

type UaRow = [string | null, string | null, string | null, string | null, number | null, string | null, string, string, number, number];
const uaRows = readJsonVector<unknown[][]>('zip', 'json', 'unified_address.json').slice(2) as UaRow[];
const networkOfUa = (ua: string): NetworkParams => (ua.startsWith('utest') ? TESTNET : ua.startsWith('uregtest') ? REGTEST : MAINNET);

describe('F4Jumble (ZIP 316)', () => {
  const rows = readJsonVector<unknown[][]>('zip', 'json', 'f4jumble.json').slice(2) as [string, string][];
  it.each(rows.map((r, i) => [i, ...r] as const))('vector %i', (_i, normal, jumbled) => {
    expect(hexOf(f4jumble(hex(normal)))).toBe(jumbled);
    expect(hexOf(f4jumbleInverse(hex(jumbled)))).toBe(normal);
  });

  it('long messages: BLAKE2b-512 of the jumbled 0, 1, …, 255, 0, … message', { timeout: 300_000 }, () => {
    const rows = readJsonVector<unknown[][]>('zip', 'json', 'f4jumble_long.json').slice(2) as [number, string][];
    expect(rows.map((r) => r[0])).toEqual([3246395, 4194368]);
    for (const [length, digest] of rows) {
      const message = Uint8Array.from({ length }, (_, i) => i & 0xff);
      const jumbled = f4jumble(message);
      expect(hexOf(blake2b(jumbled))).toBe(digest);
      if (length === 4194368) expect(Buffer.compare(Buffer.from(f4jumbleInverse(jumbled)), Buffer.from(message))).toBe(0);
    }
  });

  it('is undefined below 48 and above 4194368 bytes', () => {
    expect(() => f4jumble(new Uint8Array(47))).toThrow(RangeError);
    expect(() => f4jumbleInverse(new Uint8Array(4194369))).toThrow(RangeError);
    expect(f4jumble(new Uint8Array(48))).toHaveLength(48);
  });
});

describe('Bech32 / Bech32m', () => {
  // BIP 173 / BIP 350 example strings with valid checksums.
  it('accepts the BIPs’ valid strings with the right variant', () => {
    expect(decodeBech32Zcashd('A12UEL5L')).toMatchObject({ variant: 'bech32', hrp: 'a' });
    expect(decodeBech32Zcashd('abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw')?.variant).toBe('bech32');
    expect(decodeBech32Zcashd('A1LQFN3A')).toMatchObject({ variant: 'bech32m', hrp: 'a' });
    expect(decodeBech32Zcashd('abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx')?.variant).toBe('bech32m');
    expect(decodeBech32Strict('a1lqfn3a', 'bech32m', 1023)).toEqual({ hrp: 'a', bytes: new Uint8Array(0) });
    expect(decodeBech32Strict('a1lqfn3a', 'bech32', 1023)).toBeNull();
  });

  it('rejects mixed case, bad characters, short checksums and long strings as zcashd does', () => {
    expect(decodeBech32Zcashd('a12UEL5L')).toBeNull();
    expect(decodeBech32Zcashd('a12uel5b')).toBeNull(); // 'b' is not in the charset
    expect(decodeBech32Zcashd('1qqqqqq')).toBeNull(); // empty HRP
    expect(decodeBech32Zcashd('a1qqqqq')).toBeNull(); // fewer than 6 checksum characters
    const long = encodeBech32('a', new Uint8Array(1100), 'bech32');
    expect(decodeBech32Zcashd(long)).toBeNull(); // over 1023 characters
    expect(decodeBech32Strict(long, 'bech32', 1023)).toBeNull();
    expect(decodeBech32Strict(long, 'bech32', 2000)?.bytes).toHaveLength(687);
    expect(decodeBech32Strict('A1LQFN3a', 'bech32m', 1023)).toBeNull();
  });

  it('round-trips 8-bit data through 5-bit groups', () => {
    const data = hex('00ff7e0180');
    const groups = convertBits(data, 8, 5, true)!;
    expect(convertBits(groups, 5, 8, false)).toEqual(data);
    expect(convertBits(Uint8Array.of(31), 5, 8, false)).toBeNull(); // non-zero padding
  });
});

describe('unified addresses: every zcash-test-vectors row', () => {
  it('has the rows', () => expect(uaRows).toHaveLength(60));

  it.each(uaRows.map((r, i) => [i, r] as const))('row %i decodes to its receivers and re-encodes', (_i, row) => {
    const [p2pkh, p2sh, sapling, orchard, unknownTypecode, unknownBytes, ua] = row;
    const network = networkOfUa(ua);
    const decoded = decodePaymentAddress(ua, network);
    expect(decoded?.kind).toBe('unified');
    if (decoded?.kind !== 'unified') return;
    const expected: [number, string][] = [];
    if (p2pkh !== null) expected.push([0, p2pkh]);
    if (p2sh !== null) expected.push([1, p2sh]);
    if (sapling !== null) expected.push([2, sapling]);
    if (orchard !== null) expected.push([3, orchard]);
    if (unknownTypecode !== null) expected.push([unknownTypecode, unknownBytes!]);
    expected.sort((a, b) => a[0] - b[0]);
    expect(decoded.receivers.map((r) => [r.typecode, hexOf(r.data)])).toEqual(expected);
    expect(encodeUnified(decoded.receivers, network)).toBe(ua);
    // Another network's HRP never matches.
    expect(decodePaymentAddress(ua, network === MAINNET ? TESTNET : MAINNET)).toBeNull();
  });
});

/** A unified address of `receivers` under the mainnet HRP, bypassing every content check. */
const uaOf = (receivers: { typecode: number; data: Uint8Array }[]): string => encodeUnifiedAddress(receivers, 'u');

describe('unified address encoding rules (zcash_address 0.10.1)', () => {
  const orchard = uaRows.find((r) => r[3] !== null)![3]!;
  const sapling = uaRows.find((r) => r[2] !== null)![2]!;
  const p2pkh = { typecode: 0, data: new Uint8Array(20).fill(1) };
  const p2sh = { typecode: 1, data: new Uint8Array(20).fill(2) };
  const orchardReceiver = { typecode: 3, data: hex(orchard) };
  const saplingReceiver = { typecode: 2, data: hex(sapling) };

  it('accepts ascending typecodes with at least one shielded or unknown receiver', () => {
    expect(decodeUnifiedAddress(uaOf([p2pkh, orchardReceiver]), 'u')).toHaveLength(2);
    expect(decodeUnifiedAddress(uaOf([p2sh, { typecode: 5, data: new Uint8Array(8) }]), 'u')).toHaveLength(2);
  });

  // (A lone transparent receiver is too short to jumble, so "only transparent" never arises alone.)
  it.each([
    ['both P2PKH and P2SH', [p2pkh, p2sh, orchardReceiver]],
    ['typecodes out of order', [orchardReceiver, saplingReceiver]],
    ['a repeated typecode', [orchardReceiver, orchardReceiver]],
    ['a receiver of the wrong length', [{ typecode: 3, data: new Uint8Array(42) }]],
    ['a typecode above 0x02000000', [orchardReceiver, { typecode: 0x02000001, data: new Uint8Array(1) }]],
  ])('rejects %s', (_what, receivers) => {
    expect(decodeUnifiedAddress(uaOf(receivers), 'u')).toBeNull();
  });

  it('rejects wrong padding, Bech32 (not m) and upper or mixed case', () => {
    const ua = uaOf([orchardReceiver]);
    expect(decodeUnifiedAddress(ua, 'utest')).toBeNull();
    expect(decodeUnifiedAddress(encodeUnifiedAddress([orchardReceiver], 'utest').replace(/^utest/, 'u'), 'u')).toBeNull();
    const groups = decodeBech32Zcashd(ua)!.data;
    expect(decodeUnifiedAddress(encodeBech32('u', groups, 'bech32'), 'u')).toBeNull();
    expect(decodeUnifiedAddress(ua.toUpperCase(), 'u')).toBeNull();
    expect(decodeUnifiedAddress(ua.slice(0, 10) + ua.slice(10).toUpperCase(), 'u')).toBeNull();
    // A jumbled payload under 48 bytes cannot be unjumbled.
    expect(decodeUnifiedAddress(encodeBech32('u', convertBits(new Uint8Array(47), 8, 5, true)!, 'bech32m'), 'u')).toBeNull();
  });

  it('the whole string may be at most 4194368 characters (the Bech32mZip316 code length)', { timeout: 120_000 }, () => {
    // orchard item (45 bytes) + unknown item (1 + 5 + n) + 16 bytes of padding = 2621475 jumbled
    // bytes, whose 4194360 groups make a string of exactly 2 + 4194360 + 6 characters.
    const longest = uaOf([orchardReceiver, { typecode: 5, data: new Uint8Array(2621408) }]);
    expect(longest).toHaveLength(4194368);
    expect(decodeUnifiedAddress(longest, 'u')).toHaveLength(2);
    const tooLong = uaOf([orchardReceiver, { typecode: 5, data: new Uint8Array(2621409) }]);
    expect(tooLong).toHaveLength(4194370);
    expect(decodeUnifiedAddress(tooLong, 'u')).toBeNull();
  });

  it('decodePaymentAddress trims surrounding whitespace as zcash_address does', () => {
    expect(decodePaymentAddress(` \t${uaRows[0]![6]}\n`, MAINNET)?.kind).toBe('unified');
  });
});

describe('receiver point checks', () => {
  type SaplingRow = string[];
  const saplingKeys = readJsonVector<unknown[][]>('zip', 'json', 'sapling_key_components.json').slice(2) as SaplingRow[];
  const orchardKeys = readJsonVector<unknown[][]>('zip', 'json', 'orchard_key_components.json').slice(2) as string[][];

  it('accepts every default Sapling and Orchard address of the key-component vectors', () => {
    expect(saplingKeys).toHaveLength(10);
    expect(orchardKeys).toHaveLength(10);
    for (const row of saplingKeys) expect(isValidSaplingReceiver(hex(row[7]! + row[8]!))).toBe(true);
    for (const row of orchardKeys) expect(isValidOrchardReceiver(hex(row[8]! + row[9]!))).toBe(true);
  });

  const d = hex(saplingKeys[0]![7]!);
  const pkd = hex(saplingKeys[0]![8]!);
  const withPkd = (key: Uint8Array): Uint8Array => Uint8Array.from([...d, ...key]);

  it('rejects a Sapling pk_d that is the identity, small-order, off the subgroup or not canonical', () => {
    expect(isValidSaplingReceiver(withPkd(hex('01' + '00'.repeat(31))))).toBe(false); // identity (0, 1)
    expect(isValidSaplingReceiver(withPkd(hex('00'.repeat(32))))).toBe(false); // (0, −1), order 2
    const torsion = jubjub.Point.fromBytes(hex('dd96f4ef68200dffa1a484f390ee069166724dad3530a1162e986619b2bd58c9'));
    const mixed = jubjub.Point.fromBytes(pkd).add(torsion).toBytes();
    expect(jubjub.Point.fromBytes(mixed).isTorsionFree()).toBe(false);
    expect(isValidSaplingReceiver(withPkd(mixed))).toBe(false);
    expect(isValidSaplingReceiver(withPkd(hex('ff'.repeat(32))))).toBe(false); // v ≥ q
  });

  it('rejects a Sapling diversifier without a base point g_d', () => {
    // About half of all diversifiers have none; find the first among 00…, 01…, 02….
    let invalid: Uint8Array | null = null;
    for (let i = 0; i < 64 && invalid === null; i++) {
      const candidate = Uint8Array.from([i, ...new Uint8Array(10)]);
      if (!isValidSaplingReceiver(Uint8Array.from([...candidate, ...pkd]))) invalid = candidate;
    }
    expect(invalid).not.toBeNull();
  });

  it('rejects an Orchard pk_d that is the identity or not on Pallas', () => {
    const od = hex(orchardKeys[0]![8]!);
    expect(isValidOrchardReceiver(Uint8Array.from([...od, ...new Uint8Array(32)]))).toBe(false);
    expect(isValidOrchardReceiver(Uint8Array.from([...od, ...hex('ff'.repeat(32))]))).toBe(false);
  });

  it('a unified address with an invalid receiver is not valid, while zcashd’s Sapling decoder does not check pk_d', () => {
    const bad = Uint8Array.from([...d, ...new Uint8Array(32)]);
    expect(decodePaymentAddress(uaOf([{ typecode: 2, data: bad }]), MAINNET)).toBeNull();
    const good = Uint8Array.from([...d, ...pkd]);
    expect(decodePaymentAddress(uaOf([{ typecode: 2, data: good }]), MAINNET)?.kind).toBe('unified');
    // DecodeSapling deserializes d and pk_d without a point check.
    expect(decodePaymentAddress(encodeSaplingAddress(bad, MAINNET), MAINNET)?.kind).toBe('sapling');
  });
});

describe('Sapling, Sprout and TEX addresses', () => {
  it('zcashd’s rpc_wallet_tests Sapling address', () => {
    const decoded = decodePaymentAddress('zs1z7rejlpsa98s2rrrfkwmaxu53e4ue0ulcrw0h4x5g8jl04tak0d3mm47vdtahatqrlkngh9slya', MAINNET);
    expect(decoded?.kind).toBe('sapling');
    if (decoded?.kind !== 'sapling') return;
    expect(hexOf(decoded.diversifier)).toBe('1787997c30e94f050c634d');
    expect(hexOf(Uint8Array.from(decoded.transmissionKey).reverse())).toBe(
      '34ed1f60f5db5763beee1ddbb37dd5f7e541d4d4fbdcc09fbfcc6b8e949bbe9d',
    );
    expect(encodeSaplingAddress(Uint8Array.from([...decoded.diversifier, ...decoded.transmissionKey]), MAINNET)).toBe(
      'zs1z7rejlpsa98s2rrrfkwmaxu53e4ue0ulcrw0h4x5g8jl04tak0d3mm47vdtahatqrlkngh9slya',
    );
    // zcashd's Bech32 decoder takes an all-upper-case string; the other network's HRP is refused.
    expect(decodePaymentAddress('ZS1Z7REJLPSA98S2RRRFKWMAXU53E4UE0ULCRW0H4X5G8JL04TAK0D3MM47VDTAHATQRLKNGH9SLYA', MAINNET)?.kind).toBe(
      'sapling',
    );
    expect(
      decodePaymentAddress('ztestsapling1knww2nyjc62njkard0jmx7hlsj6twxmxwprn7anvrv4dc2zxanl3nemc0qx2hvplxmd2uau8gyw', MAINNET),
    ).toBeNull();
    expect(
      decodePaymentAddress('ztestsapling1knww2nyjc62njkard0jmx7hlsj6twxmxwprn7anvrv4dc2zxanl3nemc0qx2hvplxmd2uau8gyw', TESTNET)?.kind,
    ).toBe('sapling');
  });

  it('zcashd’s rpc_wallet_tests Sprout addresses', () => {
    const decoded = decodePaymentAddress(
      'zcWsmqT4X2V4jgxbgiCzyrAfRT1vi1F4sn7M5Pkh66izzw8Uk7LBGAH3DtcSMJeUb2pi3W4SQF8LMKkU2cUuVP68yAGcomL',
      MAINNET,
    );
    expect(decoded?.kind).toBe('sprout');
    if (decoded?.kind !== 'sprout') return;
    expect(hexOf(Uint8Array.from(decoded.payingKey).reverse())).toBe('f5bb3c888ccc9831e3f6ba06e7528e26a312eec3acc1823be8918b6a3a5e20ad');
    expect(hexOf(Uint8Array.from(decoded.transmissionKey).reverse())).toBe(
      '7a58c7132446564e6b810cf895c20537b3528357dc00150a8e201f491efa9c1a',
    );
    expect(
      decodePaymentAddress('ztaaga95QAPyp1kSQ1hD2kguCpzyMHjxWZqaYDEkzbvo7uYQYAw2S8X4Kx98AvhhofMtQL8PAXKHuZsmhRcanavKRKmdCzk', MAINNET),
    ).toBeNull();
    expect(
      decodePaymentAddress('ztaaga95QAPyp1kSQ1hD2kguCpzyMHjxWZqaYDEkzbvo7uYQYAw2S8X4Kx98AvhhofMtQL8PAXKHuZsmhRcanavKRKmdCzk', TESTNET)
        ?.kind,
    ).toBe('sprout');
  });

  it('ZIP 320 vectors: the TEX encoding of each P2PKH hash, which DecodePaymentAddress does not take', () => {
    const rows = readJsonVector<unknown[][]>('zip', 'json', 'zip_0320.json').slice(2) as [string, string, string][];
    expect(rows).toHaveLength(15);
    for (const [taddr, keyHash, tex] of rows) {
      expect(encodeTexAddress(hex(keyHash), MAINNET)).toBe(tex);
      expect(hexOf(decodeTexAddress(tex, MAINNET)!)).toBe(keyHash);
      expect(decodeTexAddress(tex, TESTNET)).toBeNull();
      expect(decodePaymentAddress(tex, MAINNET)).toBeNull();
      const t = decodePaymentAddress(taddr, MAINNET);
      expect(t?.kind).toBe('p2pkh');
      if (t?.kind === 'p2pkh') expect(hexOf(t.hash)).toBe(keyHash);
    }
  });

  it('an independent Base58Check reading of the Sprout address agrees', () => {
    const addr = 'zcWsmqT4X2V4jgxbgiCzyrAfRT1vi1F4sn7M5Pkh66izzw8Uk7LBGAH3DtcSMJeUb2pi3W4SQF8LMKkU2cUuVP68yAGcomL';
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    let n = 0n;
    for (const c of addr) n = n * 58n + BigInt(alphabet.indexOf(c));
    const bytes = hex(n.toString(16).padStart(140, '0'));
    const checksum = createHash('sha256')
      .update(createHash('sha256').update(bytes.subarray(0, 66)).digest())
      .digest();
    expect(hexOf(bytes.subarray(66))).toBe(hexOf(checksum.subarray(0, 4)));
    expect(hexOf(bytes.subarray(0, 2))).toBe('169a');
  });
});

describe('malformed input never throws', () => {
  const params = { seed: 0x316, numRuns: 300 };
  const addresses = [
    uaRows[0]![6],
    'zs1z7rejlpsa98s2rrrfkwmaxu53e4ue0ulcrw0h4x5g8jl04tak0d3mm47vdtahatqrlkngh9slya',
    'zcWsmqT4X2V4jgxbgiCzyrAfRT1vi1F4sn7M5Pkh66izzw8Uk7LBGAH3DtcSMJeUb2pi3W4SQF8LMKkU2cUuVP68yAGcomL',
    'tex10wur2u9clts5dcpu2vc6qg93uzyj7cca2xm732',
  ];

  it('arbitrary strings decode to an address or to nothing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200, size: 'max' }), (s) => {
        const decoded = decodePaymentAddress(s, MAINNET);
        expect(decoded === null || typeof decoded.kind === 'string').toBe(true);
      }),
      params,
    );
  });

  it('one changed or dropped character of a valid address makes it invalid, never an exception', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...addresses),
        fc.nat(),
        fc.constantFrom(...'qpzry9x8gf2tvdw0s3jn54khce6mua7lQ1 \0é'),
        fc.boolean(),
        (address, at, c, drop) => {
          const i = at % address.length;
          const changed = address.slice(0, i) + (drop ? '' : c) + address.slice(i + 1);
          if (changed === address) return;
          // Checksums catch any one-character change (Bech32 and Base58Check alike).
          expect(decodePaymentAddress(changed, MAINNET)).toBeNull();
        },
      ),
      params,
    );
  });
});
