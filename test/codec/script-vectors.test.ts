// Scripts of real transactions: zcashd's own zcash-tx outputs, Bitcoin/zcashd tx_valid/tx_invalid
// scripts, the spec's worked examples, and every transparent input/output of the real blocks.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAINNET, TESTNET, type NetworkParams } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { decodeTransparentAddress, encodeTransparentAddress, scriptToAsm, solveScript } from '../../src/codec/script/index.js';
import { decodeTransactionHex, type Transaction } from '../../src/codec/tx/transaction.js';
import { readHexVector, readJsonVector, realBlockFiles, vectorPath } from '../support/vectors.js';

const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex');

/** The scriptPubKey object zcashd prints (ScriptPubKeyToJSON), minus `hex` formatting concerns. */
function scriptPubKeyJson(script: Uint8Array, network: NetworkParams): Record<string, unknown> {
  const solved = solveScript(script);
  const out: Record<string, unknown> = { asm: scriptToAsm(script, false), hex: hexOf(script) };
  if (solved.reqSigs === undefined) return { ...out, type: solved.type };
  return {
    ...out,
    reqSigs: solved.reqSigs,
    type: solved.type,
    addresses: solved.destinations!.map((d) => encodeTransparentAddress(d.kind, d.hash, network)),
  };
}

describe('zcashd/zcash-tx outputs (zcashd-generated asm, hex, type, reqSigs, addresses)', () => {
  interface ZcashTxJson {
    txid: string;
    vin: { txid?: string; coinbase?: string; scriptSig?: { asm: string; hex: string } }[];
    vout: { scriptPubKey: Record<string, unknown> }[];
    hex: string;
  }
  const dir = vectorPath('zcashd', 'zcash-tx');
  const names = readdirSync(dir)
    .filter((n) => n.endsWith('.json') && n !== 'bitcoin-util-test.json')
    .map((n) => n.slice(0, -5))
    .sort();

  it('finds the nine json/hex pairs', () => {
    expect(names).toHaveLength(9);
  });

  let inputs = 0;
  let outputs = 0;
  it.each(names)('%s', (name) => {
    const expected = readJsonVector<ZcashTxJson>('zcashd', 'zcash-tx', `${name}.json`);
    const tx = decodeTransactionHex(hexOf(readHexVector('zcashd', 'zcash-tx', `${name}.hex`)));
    expect(tx.txidHex).toBe(expected.txid);
    expect(tx.data.vin).toHaveLength(expected.vin.length);
    expect(tx.data.vout).toHaveLength(expected.vout.length);
    tx.data.vin.forEach((input, i) => {
      const want = expected.vin[i]!;
      expect(want.scriptSig).toBeDefined();
      expect({ asm: scriptToAsm(input.scriptSig, true), hex: hexOf(input.scriptSig) }).toEqual(want.scriptSig);
      inputs++;
    });
    tx.data.vout.forEach((output, i) => {
      expect(scriptPubKeyJson(output.scriptPubKey, MAINNET)).toEqual(expected.vout[i]!.scriptPubKey);
      outputs++;
    });
  });

  it('compared every input and output', () => {
    // 0+20+21+21+3+0+1+2+1 inputs, 0+2+1+2+2+1+1+1+1 outputs.
    expect(inputs).toBe(69);
    expect(outputs).toBe(11);
  });
});

/**
 * Bitcoin's test-script notation (core_read.cpp ParseScript) as used by tx_valid/tx_invalid:
 * decimal numbers are pushed as script numbers (OP_0/OP_1NEGATE/OP_1..16 where possible),
 * `0x…` inserts raw bytes, and opcode names may omit the `OP_` prefix.
 */
function parseTestScript(text: string): Uint8Array {
  const names = new Map<string, number>([
    ['NOP2', 0xb1],
    ['CHECKSIG', 0xac],
    ['CHECKSIGVERIFY', 0xad],
    ['CHECKMULTISIG', 0xae],
    ['DUP', 0x76],
    ['HASH160', 0xa9],
    ['EQUAL', 0x87],
    ['EQUALVERIFY', 0x88],
    ['ADD', 0x93],
    ['1ADD', 0x8b],
    ['NOT', 0x91],
    ['DROP', 0x75],
    ['VERIFY', 0x69],
  ]);
  const bytes: number[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (/^-?\d+$/.test(word)) {
      const n = BigInt(word);
      if (n === 0n) bytes.push(0x00);
      else if (n === -1n || (n >= 1n && n <= 16n)) bytes.push(Number(n) === -1 ? 0x4f : 0x50 + Number(n));
      else {
        const data: number[] = [];
        let abs = n < 0n ? -n : n;
        while (abs > 0n) {
          data.push(Number(abs & 0xffn));
          abs >>= 8n;
        }
        if (data[data.length - 1]! & 0x80) data.push(n < 0n ? 0x80 : 0x00);
        else if (n < 0n) data[data.length - 1]! |= 0x80;
        bytes.push(data.length, ...data);
      }
    } else if (word.startsWith('0x')) {
      bytes.push(...Buffer.from(word.slice(2), 'hex'));
    } else {
      const op = names.get(word.replace(/^OP_/, ''));
      if (op === undefined) throw new Error(`test script word not handled: ${word}`);
      bytes.push(op);
    }
  }
  return Uint8Array.from(bytes);
}

describe('tx_valid.json / tx_invalid.json scripts', () => {
  type Row = [[string, number, string][], string, string];
  const rows = (file: string): Row[] => readJsonVector<unknown[][]>('zcashd', file).filter((r): r is Row => r.length > 1);
  const valid = rows('tx_valid.json');
  const invalid = rows('tx_invalid.json');

  it('has 32 valid and 54 invalid rows', () => {
    expect(valid).toHaveLength(32);
    expect(invalid).toHaveLength(54);
  });

  it('renders and classifies every prevout scriptPubKey, scriptSig and output', () => {
    const types = new Map<string, number>();
    let scripts = 0;
    let decoded = 0;
    for (const [prevouts, txHex] of [...valid, ...invalid]) {
      for (const [, , spkText] of prevouts) {
        const spk = parseTestScript(spkText);
        expect(typeof scriptToAsm(spk, false)).toBe('string');
        const t = solveScript(spk).type;
        types.set(t, (types.get(t) ?? 0) + 1);
        scripts++;
      }
      let tx: Transaction;
      try {
        tx = decodeTransactionHex(txHex);
      } catch {
        continue; // some tx_invalid rows are deliberately unparseable
      }
      decoded++;
      for (const input of tx.data.vin) {
        expect(typeof scriptToAsm(input.scriptSig, !tx.isCoinbase)).toBe('string');
        scripts++;
      }
      for (const output of tx.data.vout) {
        expect(typeof scriptToAsm(output.scriptPubKey, false)).toBe('string');
        solveScript(output.scriptPubKey);
        scripts++;
      }
    }
    expect(decoded).toBeGreaterThanOrEqual(80);
    expect(scripts).toBeGreaterThan(250);
    // Every standard family the vectors contain was recognised, and the CLTV/odd scripts were not.
    expect(types.get('pubkeyhash')).toBeGreaterThan(0);
    expect(types.get('scripthash')).toBeGreaterThan(0);
    expect(types.get('pubkey')).toBeGreaterThan(0);
    expect(types.get('multisig')).toBeGreaterThan(0);
    expect(types.get('nonstandard')).toBeGreaterThan(0);
  });

  it('first tx_valid row: P2PKH prevout and a signature with undefined hash type 0 (no suffix)', () => {
    const [prevouts, txHex] = valid[0]!;
    const spk = parseTestScript(prevouts[0]![2]);
    expect(scriptToAsm(spk, false)).toBe('OP_DUP OP_HASH160 dc44b1164188067c3a32d4780f5996fa14a4f2d9 OP_EQUALVERIFY OP_CHECKSIG');
    expect(solveScript(spk).type).toBe('pubkeyhash');
    const tx = decodeTransactionHex(txHex);
    expect(scriptToAsm(tx.data.vin[0]!.scriptSig, true)).toBe(
      '3046022100d23459d03ed7e9511a47d13292d3430a04627de6235b6e51a40f9cd386f2abe3022100e7d25b080f0bb8d8d5f878bba7d54ad2fda650ea8d158a33ee3cbd11768191fd00 ' +
        '04b0e2c879e4daf7b9ab68350228c159766676a14f5815084ba166432aab46198d4cca98fa3e9981d0a90b2effc514b76279476550ba3663fdcaff94c38420e9d5',
    );
    expect(scriptPubKeyJson(tx.data.vout[0]!.scriptPubKey, MAINNET)).toMatchObject({
      asm: 'OP_DUP OP_HASH160 9a7b0f3b80c6baaeedce0a0842553800f832ba1f OP_EQUALVERIFY OP_CHECKSIG',
      type: 'pubkeyhash',
      reqSigs: 1,
    });
  });

  it('CLTV-style prevouts: numbers, 5-byte number push as hex, OP_NOP2', () => {
    expect(scriptToAsm(parseTestScript('4294967295 NOP2 1'), false)).toBe('ffffffff00 OP_NOP2 1');
    expect(scriptToAsm(parseTestScript('2147483647 2147483647 ADD NOP2 1'), false)).toBe('2147483647 2147483647 OP_ADD OP_NOP2 1');
    expect(scriptToAsm(parseTestScript('499999999 1ADD NOP2 1'), false)).toBe('499999999 OP_1ADD OP_NOP2 1');
    expect(scriptToAsm(parseTestScript('-1 NOP2 1'), false)).toBe('-1 OP_NOP2 1');
    expect(solveScript(parseTestScript('0 NOP2 1')).type).toBe('nonstandard');
  });

  it('multisig prevout with a 0x00 "key" is nonstandard; real 1-of-2 style rows are multisig', () => {
    const bad = parseTestScript('1 0x00 0x21 0x02136b04758b0b6e363e7a6fbe83aaf527a153db2b060d36cc29f7f8309ba6e458 2 CHECKMULTISIG');
    expect(scriptToAsm(bad, false)).toBe('1 0 02136b04758b0b6e363e7a6fbe83aaf527a153db2b060d36cc29f7f8309ba6e458 2 OP_CHECKMULTISIG');
    expect(solveScript(bad)).toEqual({ type: 'nonstandard' });
    const multisigRows = [...valid, ...invalid]
      .flatMap(([prevouts]) => prevouts.map((p) => parseTestScript(p[2])))
      .filter((s) => solveScript(s).type === 'multisig');
    expect(multisigRows.length).toBeGreaterThan(0);
    for (const s of multisigRows) {
      const solved = solveScript(s);
      expect(solved.reqSigs).toBe(s[0]! - 0x50);
      expect(solved.destinations).toHaveLength(s[s.length - 2]! - 0x50);
    }
  });

  it('PUSHDATA1 whose length byte is 0xae renders as a push, not CHECKMULTISIG', () => {
    const row = [...valid, ...invalid].flatMap(([p]) => p).find((p) => p[2].startsWith('0x4c 0xae'));
    expect(row).toBeDefined();
    const script = parseTestScript(row![2]);
    const text = scriptToAsm(script, false);
    expect(text.startsWith(hexOf(script.subarray(2, 2 + 0xae)))).toBe(true);
    expect(text).not.toContain('OP_CHECKMULTISIG');
  });
});

describe('worked examples (§3.10, §3.11)', () => {
  it('mainnet block 1 coinbase outputs, mainnet and testnet forms', () => {
    const block = decodeBlock(readHexVector('blocks', 'mainnet', '1.hex'));
    const [coinbase] = block.transactions;
    expect(coinbase!.txidHex).toBe('851bf6fbf7a976327817c738c489d7fa657752445430922d94c983c0b9ed4609');
    const [out0, out1] = coinbase!.data.vout;
    expect(scriptPubKeyJson(out0!.scriptPubKey, MAINNET)).toEqual({
      asm: '027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875 OP_CHECKSIG',
      hex: '21027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875ac',
      reqSigs: 1,
      type: 'pubkey',
      addresses: ['t1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnGr'],
    });
    expect(scriptPubKeyJson(out1!.scriptPubKey, MAINNET)).toEqual({
      asm: 'OP_HASH160 7d46a730d31f97b1930d3368a967c309bd4d136a OP_EQUAL',
      hex: 'a9147d46a730d31f97b1930d3368a967c309bd4d136a87',
      reqSigs: 1,
      type: 'scripthash',
      addresses: ['t3Vz22vK5z2LcKEdg16Yv4FFneEL1zg9ojd'],
    });
    expect(scriptPubKeyJson(out0!.scriptPubKey, TESTNET)['addresses']).toEqual(['tmBidiLV1ktpZhtnM4pvYYUWi1AS2tr2Ka9']);
    expect(scriptPubKeyJson(out1!.scriptPubKey, TESTNET)['addresses']).toEqual(['t2HyD5bRDrUwyrwDQvqYxbsSRkiZBubx194']);
  });

  it('synthetic v5 transaction: scriptSig [ALL], P2PKH and OP_RETURN outputs', () => {
    const tx = decodeTransactionHex(
      '050000800a27a726b4d0d6c20000000080841e0001000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f010000006b483045022100800102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f02201f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e0121027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875feffffff0200e1f505000000001976a91415fded3c758615657163c168dbc055957a08f8d288ac00000000000000000a6a0568656c6c6f02e803000000',
    );
    expect(scriptToAsm(tx.data.vin[0]!.scriptSig, true)).toBe(
      '3045022100800102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f02201f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e[ALL] 027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875',
    );
    expect(scriptPubKeyJson(tx.data.vout[0]!.scriptPubKey, MAINNET)).toEqual({
      asm: 'OP_DUP OP_HASH160 15fded3c758615657163c168dbc055957a08f8d2 OP_EQUALVERIFY OP_CHECKSIG',
      hex: '76a91415fded3c758615657163c168dbc055957a08f8d288ac',
      reqSigs: 1,
      type: 'pubkeyhash',
      addresses: ['t1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnGr'],
    });
    expect(scriptPubKeyJson(tx.data.vout[1]!.scriptPubKey, MAINNET)).toEqual({
      asm: 'OP_RETURN 68656c6c6f 1000',
      hex: '6a0568656c6c6f02e803',
      type: 'nulldata',
    });
  });
});

describe('every transparent input and output of the real blocks', () => {
  interface FactBlock {
    network: string;
    height: number;
    transactions: { vin: number; vout: number }[];
  }
  const facts = readJsonVector<{ blocks: FactBlock[] }>('facts.json').blocks;
  const factFor = (network: string, height: number): FactBlock => facts.find((f) => f.network === network && f.height === height)!;

  it('renders, classifies and addresses them all, consistently with facts.json counts', () => {
    const files = realBlockFiles();
    expect(files.length).toBe(72);
    const types: Record<string, number> = {};
    let vins = 0;
    let vouts = 0;
    const coinbaseErrors: string[] = [];
    for (const file of files) {
      const network = file.network === 'mainnet' ? MAINNET : TESTNET;
      const block = decodeBlock(readHexVector(file.file));
      const fact = factFor(file.network, file.height);
      block.transactions.forEach((tx, t) => {
        expect(tx.data.vin).toHaveLength(fact.transactions[t]!.vin);
        expect(tx.data.vout).toHaveLength(fact.transactions[t]!.vout);
        for (const input of tx.data.vin) {
          const text = scriptToAsm(input.scriptSig, !tx.isCoinbase);
          // Spending scriptSigs are push-only and always tokenize; coinbase data is free-form.
          if (!tx.isCoinbase) expect(text).not.toContain('[error]');
          else if (text.endsWith('[error]')) coinbaseErrors.push(`${file.network} ${file.height}: ${text}`);
          vins++;
        }
        for (const output of tx.data.vout) {
          scriptToAsm(output.scriptPubKey, false);
          const solved = solveScript(output.scriptPubKey);
          types[solved.type] = (types[solved.type] ?? 0) + 1;
          for (const d of solved.destinations ?? []) {
            const address = encodeTransparentAddress(d.kind, d.hash, network);
            const expectedLead = network === MAINNET ? (d.kind === 'p2pkh' ? 't1' : 't3') : d.kind === 'p2pkh' ? 'tm' : 't2';
            expect(address.slice(0, 2)).toBe(expectedLead);
            expect(decodeTransparentAddress(address, network)).toEqual({ kind: d.kind, hash: Uint8Array.from(d.hash) });
          }
          vouts++;
        }
      });
    }
    const factVin = facts
      .filter((f) => !('invalid' in f))
      .flatMap((f) => f.transactions)
      .reduce((a, t) => a + t.vin, 0);
    const factVout = facts
      .filter((f) => !('invalid' in f))
      .flatMap((f) => f.transactions)
      .reduce((a, t) => a + t.vout, 0);
    expect(vins).toBe(factVin);
    expect(vouts).toBe(factVout);
    // Real blocks here hold only these three kinds (no OP_RETURN, bare multisig or nonstandard).
    expect(types).toEqual({ pubkey: 25, scripthash: 119, pubkeyhash: 2439 });
    // Real example: the mainnet 347501 coinbase pushes its height, then bytes that do not tokenize.
    expect(coinbaseErrors).toContain('mainnet 347501: 347501 0 [error]');
  });

  it('real P2PKH signatures carry [ALL] suffixes (mainnet 1687108, first transparent v5 txs)', () => {
    const block = decodeBlock(readHexVector('blocks', 'mainnet', '1687108.hex'));
    const suffixed = block.transactions
      .filter((tx) => !tx.isCoinbase)
      .flatMap((tx) => tx.data.vin.map((i) => scriptToAsm(i.scriptSig, true)))
      .filter((s) => /^[0-9a-f]+\[ALL\] 0[23][0-9a-f]{64}$/.test(s));
    expect(suffixed.length).toBeGreaterThan(0);
  });
});

describe('random and extra real scripts never break the renderer or the solver', () => {
  const exercise = (script: Uint8Array, sighash: boolean): void => {
    const text = scriptToAsm(script, sighash);
    expect(typeof text).toBe('string');
    const solved = solveScript(script);
    for (const d of solved.destinations ?? []) expect(d.hash).toHaveLength(20);
  };

  it('sighash.json: 500 random transactions and their random scripts', () => {
    const rows = readJsonVector<unknown[][]>('zcashd', 'sighash.json').slice(1) as [string, string][];
    expect(rows).toHaveLength(500);
    let scripts = 0;
    for (const [txHex, scriptHex] of rows) {
      const script = Uint8Array.from(Buffer.from(scriptHex, 'hex'));
      exercise(script, true);
      const tx = decodeTransactionHex(txHex);
      for (const i of tx.data.vin) exercise(i.scriptSig, true);
      for (const o of tx.data.vout) exercise(o.scriptPubKey, false);
      scripts += 1 + tx.data.vin.length + tx.data.vout.length;
    }
    expect(scripts).toBeGreaterThan(1500);
    // Row 1's script is `53 00` → "3 0".
    expect(scriptToAsm(Uint8Array.from(Buffer.from(rows[0]![1], 'hex')), false)).toBe('3 0');
  });

  it('zip0244.json: v5 transactions and their script_pubkeys', () => {
    const rows = readJsonVector<unknown[][]>('zcashd', 'zip0244.json').filter((r) => r.length > 1) as [
      string,
      string,
      string,
      number[],
      string[],
    ][];
    expect(rows).toHaveLength(10);
    for (const [txHex, , , , spks] of rows) {
      const tx = decodeTransactionHex(txHex);
      for (const i of tx.data.vin) exercise(i.scriptSig, !tx.isCoinbase);
      for (const o of tx.data.vout) exercise(o.scriptPubKey, false);
      for (const spk of spks) exercise(Uint8Array.from(Buffer.from(spk, 'hex')), false);
    }
  });

  it('zcashd-2019 (51 mainnet blocks) and lightwalletd corpus blocks', () => {
    const blockFiles = [
      ...readdirSync(vectorPath('zcashd-2019'))
        .filter((n) => n.endsWith('.hex'))
        .map((n) => ['zcashd-2019', n]),
      ...readdirSync(vectorPath('lightwalletd', 'corpus')).map((n) => ['lightwalletd', 'corpus', n]),
    ];
    expect(blockFiles.length).toBe(55);
    const types: Record<string, number> = {};
    for (const parts of blockFiles) {
      const block = decodeBlock(readHexVector(...parts));
      for (const tx of block.transactions) {
        for (const i of tx.data.vin) {
          const text = scriptToAsm(i.scriptSig, !tx.isCoinbase);
          if (!tx.isCoinbase) expect(text).not.toContain('[error]');
        }
        for (const o of tx.data.vout) {
          scriptToAsm(o.scriptPubKey, false);
          const t = solveScript(o.scriptPubKey).type;
          types[t] = (types[t] ?? 0) + 1;
        }
      }
    }
    expect(types['pubkeyhash']).toBeGreaterThan(0);
    expect(types['scripthash']).toBeGreaterThan(0);
  });
});
