// signrawtransaction as zcashd v6.12.2 answers it without a wallet. Real mainnet transactions
// whose spent outputs are in the shared vectors verify with their real signatures (ZIP 243 under
// their epoch's branch id only, ZIP 244); the same transactions, their scriptSigs stripped, are
// signed again with vector keys (P2PKH, P2PK, every hash type) and each signature is checked
// against an independently computed signature hash; a 2-of-3 P2SH multisig is signed by one key,
// then completed by a second call and by merging two variants; missing keys and coins give
// zcashd's per-input errors, and every bad parameter zcashd's code and message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET, regtestWithActivations } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../../src/codec/tx/acceptance.js';
import { CURRENT, ZCASHD_6_12_2 } from '../../../src/compat/profiles.js';
import { toHex } from '../../../src/codec/hex.js';
import { ScriptError } from '../../../src/codec/script/script-error.js';
import { STANDARD_SCRIPT_VERIFY_FLAGS } from '../../../src/codec/script/signature-encoding.js';
import { verifyScript } from '../../../src/codec/script/verify-script.js';
import { zip243SignatureHash, zip244SignatureHash } from '../../../src/codec/tx/sighash.js';
import { TransactionSignatureChecker } from '../../../src/codec/tx/signature-checker.js';
import { decodeTransactionHex, encodeTransaction, type Transaction } from '../../../src/codec/tx/transaction.js';
import { serializeTransparentTransaction } from '../../../src/codec/tx/transparent-builder.js';
import type { TransactionData } from '../../../src/codec/tx/types.js';
import { hash160 } from '../../../src/crypto/hash.js';
import { publicKeyOf, signDer, verifyDer } from '../../../src/crypto/secp256k1.js';
import { signRawTransactionMethod } from '../../../src/rpc/methods/rawtransaction/signrawtransaction.js';
import type { Coin } from '../../../src/state/apply-block.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { openChainStore, type ChainStore } from '../../../src/store/index.js';
import type { ChainStoreReader } from '../../../src/store/types.js';
import { callMethod, errorOf, resultOf } from '../../support/call.js';
import { mainnetGenesisRun } from '../../support/memory-store.js';
import { nu63BlockBytes, nu63Facts } from '../../support/nu63-facts.js';
import { mainnetVectorTransactions, mainnetWifKeys, previousOutputsOf } from '../../support/signing-fixtures.js';
import { tempDir } from '../../support/store.js';

const all = mainnetVectorTransactions();
const keys = mainnetWifKeys();
const compressed = keys.filter((k) => k.key.compressed);
const uncompressed = keys.filter((k) => !k.key.compressed);
const SAPLING = '76b809bb';

/** The method over a store at `height` whose coins view holds `coins` (txid hex as printed, ':', n). */
function methodAt(height: number, coins: Map<string, Coin> = new Map()): RpcMethod {
  const store = { tip: async () => ({ height, hash: new Uint8Array(32) }) } as unknown as ChainStoreReader;
  return signRawTransactionMethod(store, { coin: (txid, n) => coins.get(`${toHex(Uint8Array.from(txid).reverse())}:${n}`) ?? null });
}
const method = methodAt(3_400_000);

interface Reply {
  hex: string;
  complete: boolean;
  errors?: { txid: string; vout: number; scriptSig: string; sequence: number; error: string }[];
}
async function sign(params: unknown[]): Promise<Reply> {
  const text = await resultOf(method, JSON.stringify(params));
  const reply = JSON.parse(text) as Reply;
  // zcashd's member order, "errors" only when there are some.
  expect(Object.keys(reply)).toEqual(reply.complete ? ['hex', 'complete'] : ['hex', 'complete', 'errors']);
  return reply;
}

/** The transaction with every scriptSig emptied: an unsigned template. */
function stripped(tx: Transaction): TransactionData {
  return { ...tx.data, vin: tx.data.vin.map((i) => ({ prevout: i.prevout, scriptSig: new Uint8Array(0), sequence: i.sequence })) };
}
const hexOf = (data: TransactionData) => toHex(encodeTransaction(data));
const p2pkh = (pubkey: Uint8Array) => Uint8Array.from([0x76, 0xa9, 0x14, ...hash160(pubkey), 0x88, 0xac]);
const p2sh = (script: Uint8Array) => Uint8Array.from([0xa9, 0x14, ...hash160(script), 0x87]);
/** The pushes of a push-only script. */
function pushes(script: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < script.length;) {
    const op = script[i++]!;
    if (op === 0) out.push(new Uint8Array(0));
    else if (op < 0x4c) out.push(script.slice(i, (i += op)));
    else if (op === 0x4c) out.push(script.slice(i + 1, (i += 1 + script[i]!)));
    else throw new Error(`not a push: ${op}`);
  }
  return out;
}

const V4_SAPLING = '521279aa7c71778669de31a4d607a5ca1360b3bee2a17b561c8a0dd90576e338'; // mainnet 434873
const V5 = '1cc7ae6d652672a3b7383f2cb98e64c4a1f9004d29e86da967c11ebf6bd3c1d7'; // mainnet 1687113
const REAL = [
  { txid: '94cec31baeeccf06f10182e168f9f07d094d228c98ed82d69c76092e21529e70', branchId: SAPLING }, // 419201
  { txid: V4_SAPLING, branchId: SAPLING },
  { txid: 'c7e39fb191ca46907fe536281247729c3c59368e1d87a1892c44f401327dadff', branchId: 'f5b9230b' }, // 949496, Heartwood
  { txid: V5, branchId: null },
  { txid: 'cde690ea0c6315f90df3617e73fd261f55adf3160ba2834f0bfebe56d8b20b23', branchId: null }, // 1687118
];

describe('signrawtransaction: real mainnet signatures', () => {
  it('finds every real input complete, under its epoch branch id for v4 (ZIP 243) and any for v5 (ZIP 244)', async () => {
    for (const { txid, branchId } of REAL) {
      const tx = all.get(txid)!;
      const hex = toHex(tx.bytes);
      const prevtxs = previousOutputsOf(tx, all);
      // No keys: nothing is signed, the real scriptSigs are kept and verified.
      expect(await sign([hex, prevtxs, [], 'ALL', branchId])).toEqual({ hex, complete: true });
      if (branchId === null) continue;
      // Under the current epoch's branch id (NU6.1 here) the signature hash differs.
      const reply = await sign([hex, prevtxs, []]);
      expect(reply.hex).toBe(hex);
      expect(reply.errors).toEqual(
        tx.data.vin.map((i) => ({
          txid: prevtxs[0]!.txid,
          vout: i.prevout.index,
          scriptSig: toHex(i.scriptSig),
          sequence: i.sequence,
          error: 'Script evaluated without error but finished with a false/empty top stack element',
        })),
      );
    }
  });
});

describe('signrawtransaction: signing', () => {
  it('signs P2PKH in a real v4 transaction: exact bytes, checked against ZIP 243 and the interpreter', async () => {
    const tx = all.get(V4_SAPLING)!;
    const template = stripped(tx);
    const { wif, key } = compressed[0]!;
    const pubkey = publicKeyOf(key.secret, true);
    const [real] = previousOutputsOf(tx, all);
    const prevtxs = [{ ...real, scriptPubKey: toHex(p2pkh(pubkey)) }];
    const reply = await sign([hexOf(template), prevtxs, [wif], 'ALL', SAPLING]);
    expect(reply.complete).toBe(true);
    const signed = decodeTransactionHex(reply.hex).data;
    const scriptSig = signed.vin[0]!.scriptSig;
    expect(hexOf({ ...signed, vin: template.vin })).toBe(hexOf(template));
    // Independently: the ZIP 243 hash of the template, the deterministic signature of it.
    const [sig, pushedKey] = pushes(scriptSig);
    expect(toHex(pushedKey!)).toBe(toHex(pubkey));
    const amount = Math.round(Number(real!.amount) * 1e8);
    const hash = zip243SignatureHash(template, { index: 0, scriptCode: p2pkh(pubkey), value: amount }, 1, 0x76b809bb);
    expect(toHex(sig!)).toBe(toHex(signDer(hash, key.secret)) + '01');
    expect(verifyDer(hash, sig!.subarray(0, -1), pubkey)).toBe(true);
    const checker = new TransactionSignatureChecker(signed, { index: 0, amount, spent: [] });
    expect(verifyScript(scriptSig, p2pkh(pubkey), STANDARD_SCRIPT_VERIFY_FLAGS, checker, 0x76b809bb)).toBe(ScriptError.OK);
    expect(toHex(scriptSig)).toBe(EXPECTED_V4_SCRIPTSIG);
  });

  it('signs P2PKH in a real v5 transaction against ZIP 244, which needs every spent output', async () => {
    const tx = all.get(V5)!;
    const template = stripped(tx);
    const { wif, key } = compressed[1]!;
    const pubkey = publicKeyOf(key.secret, true);
    const [real] = previousOutputsOf(tx, all);
    const prevtxs = [{ ...real, scriptPubKey: toHex(p2pkh(pubkey)) }];
    expect(await errorOf(method, JSON.stringify([hexOf(template), null, [wif]]))).toEqual({
      code: -8,
      message: 'Cannot sign v5 transactions without knowing all inputs',
    });
    const reply = await sign([hexOf(template), prevtxs, [wif]]);
    expect(reply.complete).toBe(true);
    const [sig] = pushes(decodeTransactionHex(reply.hex).data.vin[0]!.scriptSig);
    const amount = Math.round(Number(real!.amount) * 1e8);
    const spent = [{ value: amount, scriptPubKey: p2pkh(pubkey) }];
    const hash = zip244SignatureHash(template, { index: 0, scriptCode: p2pkh(pubkey), value: amount }, 1, spent);
    expect(toHex(sig!)).toBe(toHex(signDer(hash, key.secret)) + '01');
  });

  it('signs with each hash type, the type in the signature’s last byte', async () => {
    const tx = all.get(V4_SAPLING)!;
    const { wif, key } = compressed[2]!;
    const pubkey = publicKeyOf(key.secret, true);
    const prevtxs = [{ ...previousOutputsOf(tx, all)[0], scriptPubKey: toHex(p2pkh(pubkey)) }];
    const types = { ALL: 1, NONE: 2, SINGLE: 3, 'ALL|ANYONECANPAY': 0x81, 'NONE|ANYONECANPAY': 0x82, 'SINGLE|ANYONECANPAY': 0x83 };
    for (const [name, value] of Object.entries(types)) {
      const reply = await sign([hexOf(stripped(tx)), prevtxs, [wif], name, SAPLING]);
      expect(reply.complete, name).toBe(true);
      const [sig] = pushes(decodeTransactionHex(reply.hex).data.vin[0]!.scriptSig);
      expect(sig![sig!.length - 1]).toBe(value);
    }
  });

  it('signs P2PK with an uncompressed key: the signature alone', async () => {
    const tx = all.get(V4_SAPLING)!;
    const { wif, key } = uncompressed[0]!;
    const pubkey = publicKeyOf(key.secret, false);
    const script = Uint8Array.from([65, ...pubkey, 0xac]);
    const prevtxs = [{ ...previousOutputsOf(tx, all)[0], scriptPubKey: toHex(script) }];
    const reply = await sign([hexOf(stripped(tx)), prevtxs, [wif], null, SAPLING]);
    expect(reply.complete).toBe(true);
    expect(pushes(decodeTransactionHex(reply.hex).data.vin[0]!.scriptSig).length).toBe(1);
  });
});

describe('signrawtransaction: multisig and combining', () => {
  const tx = all.get(V4_SAPLING)!;
  const [k1, k2, k3] = compressed;
  const pubkeys = [k1!, k2!, k3!].map(({ key }) => publicKeyOf(key.secret, true));
  // 2 <k1> <k2> <k3> 3 OP_CHECKMULTISIG
  const redeemScript = Uint8Array.from([0x52, ...pubkeys.flatMap((p) => [33, ...p]), 0x53, 0xae]);
  const prevtx = { ...previousOutputsOf(tx, all)[0], scriptPubKey: toHex(p2sh(redeemScript)), redeemScript: toHex(redeemScript) };

  it('signs 2-of-3 P2SH with one key (incomplete), then completes it with a second call', async () => {
    const first = await sign([hexOf(stripped(tx)), [prevtx], [k1!.wif], 'ALL', SAPLING]);
    expect(first.complete).toBe(false);
    const partial = decodeTransactionHex(first.hex).data.vin[0]!;
    const [dummy, sig1, script] = pushes(partial.scriptSig);
    expect([dummy!.length, toHex(script!)]).toEqual([0, toHex(redeemScript)]);
    expect(first.errors).toEqual([
      {
        txid: prevtx.txid,
        vout: prevtx.vout,
        scriptSig: toHex(partial.scriptSig),
        sequence: partial.sequence,
        error: 'Operation not valid with the current stack size',
      },
    ]);
    const second = await sign([first.hex, [prevtx], [k2!.wif], 'ALL', SAPLING]);
    expect(second.complete).toBe(true);
    const elements = pushes(decodeTransactionHex(second.hex).data.vin[0]!.scriptSig);
    // The signatures in the keys' order, whichever call made them.
    expect(elements.map(toHex)).toEqual(['', toHex(sig1!), elements[2] && toHex(elements[2]), toHex(redeemScript)]);
    const own = await sign([hexOf(stripped(tx)), [prevtx], [k2!.wif], 'ALL', SAPLING]);
    expect(toHex(elements[2]!)).toBe(toHex(pushes(decodeTransactionHex(own.hex).data.vin[0]!.scriptSig)[1]!));
  });

  it('merges two partially signed variants given in one hex, keys 3 and 1 back in key order', async () => {
    const by3 = await sign([hexOf(stripped(tx)), [prevtx], [k3!.wif], 'ALL', SAPLING]);
    const by1 = await sign([hexOf(stripped(tx)), [prevtx], [k1!.wif], 'ALL', SAPLING]);
    const merged = await sign([by3.hex + by1.hex, [prevtx], [], 'ALL', SAPLING]);
    expect(merged.complete).toBe(true);
    const [, first, second] = pushes(decodeTransactionHex(merged.hex).data.vin[0]!.scriptSig);
    expect([toHex(first!), toHex(second!)]).toEqual([
      toHex(pushes(decodeTransactionHex(by1.hex).data.vin[0]!.scriptSig)[1]!),
      toHex(pushes(decodeTransactionHex(by3.hex).data.vin[0]!.scriptSig)[1]!),
    ]);
  });

  it('signs bare 1-of-2 multisig with the second key', async () => {
    const bare = Uint8Array.from([0x51, 33, ...pubkeys[0]!, 33, ...pubkeys[1]!, 0x52, 0xae]);
    const prevtxs = [{ ...previousOutputsOf(tx, all)[0], scriptPubKey: toHex(bare) }];
    const reply = await sign([hexOf(stripped(tx)), prevtxs, [k2!.wif], 'ALL', SAPLING]);
    expect(reply.complete).toBe(true);
    expect(pushes(decodeTransactionHex(reply.hex).data.vin[0]!.scriptSig).length).toBe(2);
  });
});

describe('signrawtransaction: inputs it cannot sign', () => {
  const tx = all.get(V4_SAPLING)!;
  const template = hexOf(stripped(tx));
  const input = tx.data.vin[0]!;

  it('reports a P2PKH input whose key is not given, its scriptSig left empty', async () => {
    const pubkey = publicKeyOf(compressed[0]!.key.secret, true);
    const prevtxs = [{ ...previousOutputsOf(tx, all)[0], scriptPubKey: toHex(p2pkh(pubkey)) }];
    expect(await sign([template, prevtxs, [compressed[1]!.wif], 'ALL', SAPLING])).toEqual({
      hex: template,
      complete: false,
      errors: [
        {
          txid: prevtxs[0]!.txid,
          vout: input.prevout.index,
          scriptSig: '',
          sequence: input.sequence,
          error: 'Operation not valid with the current stack size',
        },
      ],
    });
  });

  it('reports an input whose coin is neither given nor in the coins view', async () => {
    const reply = await sign([template]);
    expect(reply.errors?.map((e) => e.error)).toEqual(['Input not found or already spent']);
  });

  it('reads coins from the coins view: the spent output as the chain holds it', async () => {
    const pubkey = publicKeyOf(compressed[0]!.key.secret, true);
    const [prev] = previousOutputsOf(tx, all);
    const coins = new Map([[`${prev!.txid}:${prev!.vout}`, { value: 5000, scriptPubKey: p2pkh(pubkey), height: 1, coinbase: false }]]);
    const viaStore = methodAt(434_872, coins);
    const reply = JSON.parse(await resultOf(viaStore, JSON.stringify([template, null, [compressed[0]!.wif], 'ALL', SAPLING]))) as Reply;
    expect(reply.complete).toBe(true);
    // A prevtxs entry whose script differs from the coin's is refused with both scripts' asm.
    const other = toHex(p2pkh(publicKeyOf(compressed[1]!.key.secret, true)));
    expect(await errorOf(viaStore, JSON.stringify([template, [{ txid: prev!.txid, vout: prev!.vout, scriptPubKey: other }]]))).toEqual({
      code: -22,
      message:
        `Previous output scriptPubKey mismatch:\nOP_DUP OP_HASH160 ${toHex(hash160(pubkey))} OP_EQUALVERIFY OP_CHECKSIG\nvs:\n` +
        `OP_DUP OP_HASH160 ${other.slice(6, 46)} OP_EQUALVERIFY OP_CHECKSIG`,
    });
  });
});

describe('signrawtransaction: bad parameters', () => {
  const tx = all.get(V4_SAPLING)!;
  const template = hexOf(stripped(tx));
  const prev = previousOutputsOf(tx, all)[0]!;
  const P2SH = toHex(p2sh(Uint8Array.of(0x51)));
  const cases: [string, unknown[] | string, number, string][] = [
    ['hex not a string', '[1]', -3, 'Expected type string, got number'],
    ['prevtxs not an array', `["${template}", {}]`, -3, 'Expected type array, got object'],
    ['keys not an array', `["${template}", null, "k"]`, -3, 'Expected type array, got string'],
    ['sighash not a string', `["${template}", null, null, 1]`, -3, 'Expected type string, got number'],
    ['branch id not a string', `["${template}", null, null, null, 1]`, -3, 'Expected type string, got number'],
    ['bad hex', ['zz'], -8, "argument 1 must be hexadecimal string (not 'zz')"],
    ['odd hex', ['abc'], -8, "argument 1 must be hexadecimal string (not 'abc')"],
    ['not a transaction', ['00'], -22, 'TX decode failed'],
    ['trailing bytes', [template + '00'], -22, 'TX decode failed'],
    ['key not a string', [template, null, [1]], -1, 'JSON value is not a string as expected'],
    ['invalid key', [template, null, [keys[0]!.wif.slice(0, -1) + (keys[0]!.wif.endsWith('a') ? 'b' : 'a')]], -5, 'Invalid private key'],
    ['testnet key on mainnet', [template, null, ['cTpB4YiyKiBcPxnefsDpbnDxFDffjqJob8wGCEDXxgQ7zQoMXJdH']], -5, 'Invalid private key'],
    ['prevtx not an object', [template, [1]], -22, 'expected object with {"txid\'","vout","scriptPubKey"}'],
    ['missing scriptPubKey first', [template, [{}]], -3, 'Missing scriptPubKey'],
    ['missing txid', [template, [{ scriptPubKey: '51' }]], -3, 'Missing txid'],
    ['missing vout', [template, [{ scriptPubKey: '51', txid: prev.txid }]], -3, 'Missing vout'],
    ['txid of another type', [template, [{ scriptPubKey: '51', txid: 5, vout: 0 }]], -3, 'Expected type string for txid, got number'],
    ['vout as a string', [template, [{ scriptPubKey: '51', txid: prev.txid, vout: '0' }]], -3, 'Expected type number for vout, got string'],
    ['txid not hex', [template, [{ scriptPubKey: '51', txid: 'xy', vout: 0 }]], -8, "txid must be hexadecimal string (not 'xy')"],
    ['negative vout', [template, [{ scriptPubKey: '51', txid: prev.txid, vout: -1 }]], -22, 'vout must be positive'],
    ['vout not an integer', [template, [{ scriptPubKey: '51', txid: prev.txid, vout: 1.5 }]], -1, 'JSON integer out of range'],
    [
      'scriptPubKey not hex',
      [template, [{ scriptPubKey: 'q', txid: prev.txid, vout: 0 }]],
      -8,
      "scriptPubKey must be hexadecimal string (not 'q')",
    ],
    ['amount null', [template, [{ scriptPubKey: '51', txid: prev.txid, vout: 0, amount: null }]], -3, 'Amount is not a number or string'],
    ['amount negative', [template, [{ scriptPubKey: '51', txid: prev.txid, vout: 0, amount: -1 }]], -3, 'Amount out of range'],
    ['amount too precise', [template, [{ scriptPubKey: '51', txid: prev.txid, vout: 0, amount: 0.000000001 }]], -3, 'Invalid amount'],
    [
      'P2SH without redeemScript when keys are given',
      [template, [{ scriptPubKey: P2SH, txid: prev.txid, vout: 0 }], []],
      -3,
      'Missing redeemScript',
    ],
    [
      'redeemScript not hex',
      [template, [{ scriptPubKey: P2SH, txid: prev.txid, vout: 0, redeemScript: 'g' }], []],
      -8,
      "redeemScript must be hexadecimal string (not 'g')",
    ],
    ['unknown sighash', [template, null, null, 'all'], -8, 'Invalid sighash param'],
    ['unknown branch id', [template, null, null, null, '12345678'], -1, '12345678 is not a valid consensus branch id'],
  ];
  for (const [name, params, code, message] of cases) {
    it(name, async () => {
      expect(await errorOf(method, typeof params === 'string' ? params : JSON.stringify(params))).toEqual({ code, message });
    });
  }

  it('reads branch ids as zcashd’s istringstream does (0x, blanks, case, junk, a minus modulo 2^32); Sprout, ZFUTURE and the test upgrade are ids', async () => {
    const real = all.get(V4_SAPLING)!;
    const params = (text: string) => JSON.stringify([toHex(real.bytes), previousOutputsOf(real, all), [], null, text]);
    for (const text of ['0x76b809bb', ' 76b809bbzz', '76B809BB', '-8947f645']) {
      expect((JSON.parse(await resultOf(method, params(text))) as Reply).complete, text).toBe(true);
    }
    // Valid ids, other hashes: no digit reads 0 (Sprout), too many read 0xffffffff (ZFUTURE).
    for (const text of ['zz', '0', '74736554', 'ffffffff', '1ffffffff', '-1']) {
      expect((JSON.parse(await resultOf(method, params(text))) as Reply).complete, text).toBe(false);
    }
  });

  it('takes a P2SH prevtx without redeemScript when no keys are given, and an amount given as a string', async () => {
    const reply = await sign([template, [{ scriptPubKey: P2SH, txid: prev.txid, vout: prev.vout, amount: '0.1' }]]);
    expect(reply.errors?.map((e) => e.error)).toEqual(['Operation not valid with the current stack size']);
  });

  it('signs for the next block’s epoch, at least APPROX_RELEASE_HEIGHT’s except on regtest', async () => {
    const real = all.get(V4_SAPLING)!;
    const params = JSON.stringify([toHex(real.bytes), previousOutputsOf(real, all), []]);
    const saplingRegtest = regtestWithActivations({ Overwinter: 1, Sapling: 1 });
    const onRegtest = await resultOf(methodAt(0), params, { network: saplingRegtest });
    expect((JSON.parse(onRegtest) as Reply).complete).toBe(true);
    // Mainnet in the Sapling epoch: the release height's NU6.1 branch id is used instead.
    const onMainnet = await resultOf(methodAt(434_872), params);
    expect((JSON.parse(onMainnet) as Reply).complete).toBe(false);
  });
});

/**
 * The scriptSig signed above: <DER signature ‖ SIGHASH_ALL> <compressed key>. Each part is
 * recomputed in the test (the ZIP 243 hash, RFC 6979's signature of it, the key of the WIF).
 */
const EXPECTED_V4_SCRIPTSIG =
  '473044022070d6dfd65146c27c01e8ea69ff822eb47056c8dfd3478860098f4d59ac13226302204759de01aed962e995a22ba6aa87435795e1858e10802c6b7ee81eade7fdd68d01' +
  '2102157bc6dc9dc7a25d537f36d4714c0cfc11c882f017a989e16956cc1aa8cce20a';

describe('signrawtransaction over the LevelDB store (mainnet 0..20)', () => {
  const dir = tempDir('signrawtransaction');
  const blocks = mainnetGenesisRun();
  let store: ChainStore;
  let methods: Map<string, RpcMethod>;
  beforeAll(async () => {
    store = await openChainStore({ datadir: dir.path, network: MAINNET });
    for (const b of blocks) await store.addBlock(b);
    methods = new Map(storeMethods(store).map((m) => [m.name, m]));
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it("finds the chain's unspent outputs for the inputs, refuses a prevtx that contradicts one, misses the rest", async () => {
    const [first, second] = [1, 2].map((h) => decodeBlock(blocks[h]!).transactions[0]!.txidHex);
    const inputs = [
      { txid: first, vout: 0 },
      { txid: first, vout: 1 },
      { txid: second, vout: 7 },
    ];
    const unsigned = JSON.parse(
      await resultOf(methods.get('createrawtransaction')!, JSON.stringify([inputs, { t1T8yaLVhNqxA5KJcmiqqFN88e8DNp2PBfF: 0.1 }])),
    ) as string;
    const signer = methods.get('signrawtransaction')!;
    const reply = JSON.parse(await resultOf(signer, JSON.stringify([unsigned]))) as Reply;
    expect(reply.errors?.map((e) => [e.txid, e.vout, e.error])).toEqual([
      [first, 0, 'Operation not valid with the current stack size'],
      [first, 1, 'Operation not valid with the current stack size'],
      [second, 7, 'Input not found or already spent'],
    ]);
    const coinbase = JSON.parse(await resultOf(methods.get('getrawtransaction')!, JSON.stringify([first, 1]))) as {
      vout: { scriptPubKey: { asm: string } }[];
    };
    const given = { txid: first, vout: 0, scriptPubKey: '51' };
    expect(await errorOf(signer, JSON.stringify([unsigned, [given]]))).toEqual({
      code: -22,
      message: `Previous output scriptPubKey mismatch:\n${coinbase.vout[0]!.scriptPubKey.asm}\nvs:\n1`,
    });
  });
});

describe('signrawtransaction and the compatibility profiles', () => {
  it('refuses a real v6 transaction: not decoded under 6.12.2, not signable under the current profile', async () => {
    const block = Object.values(nu63Facts).find((b) => b.transactions.some((t) => t.version === 6))!;
    const index = block.transactions.findIndex((t) => t.version === 6);
    const v6 = decodeBlock(nu63BlockBytes(block), CURRENT_CHAIN_ACCEPTANCE).transactions[index]!;
    expect(v6.txidHex).toBe(block.transactions[index]!.txid);
    const params = JSON.stringify([toHex(v6.bytes)]);
    expect(await callMethod(method, params, { profile: ZCASHD_6_12_2 })).toEqual({ error: { code: -22, message: 'TX decode failed' } });
    expect(await callMethod(method, params, { profile: CURRENT })).toEqual({
      error: { code: -8, message: 'Cannot sign v6 transactions: zecrpc has no ZIP 229 signature digest' },
    });
  });
});

describe('signrawtransaction with many inputs', () => {
  it('signs 20 P2PKH inputs of a v4 transaction, letting the event loop turn after every 8', async () => {
    const { wif, key } = compressed[0]!;
    const script = toHex(p2pkh(publicKeyOf(key.secret, true)));
    const inputs = Array.from({ length: 20 }, (_, n) => ({ txid: n.toString(16).padStart(64, '0'), vout: n, sequence: 0xffffffff }));
    const unsigned = serializeTransparentTransaction({
      version: 4,
      branchId: 0x76b809bb,
      lockTime: 0,
      expiryHeight: 0,
      inputs: inputs.map((i) => ({ txid: Uint8Array.from(Buffer.from(i.txid, 'hex')).reverse(), vout: i.vout, sequence: i.sequence })),
      outputs: [{ script: p2pkh(publicKeyOf(key.secret, true)), value: 1000n }],
    });
    // Turns of the event loop while the call runs: it yields after every 8 inputs.
    let turns = 0;
    let running = true;
    const turn = () => {
      if (!running) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    const prevtxs = inputs.map((i) => ({ txid: i.txid, vout: i.vout, scriptPubKey: script, amount: 0.0001 }));
    const reply = await sign([toHex(unsigned), prevtxs, [wif], 'ALL', SAPLING]);
    running = false;
    expect(reply.complete).toBe(true);
    expect(decodeTransactionHex(reply.hex).data.vin.every((i) => pushes(i.scriptSig).length === 2)).toBe(true);
    expect(turns).toBe(2);
  });
});
