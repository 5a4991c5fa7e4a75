// v6 transactions (ZIP 229) in TxToJSON's form: every v6 transaction of the real NU6.3 blocks
// (../shared/test-vectors/nu6.3) renders; its key facts are facts.json's; every Orchard and
// Ironwood member is the bytes an independent reader of ZIP 229's layout finds for it
// (test/support/v6-layout.ts); the member order, numbers and flags are fixed by the skeletons in
// test-vectors/v6-json. v5 transactions carrying NU6.2's and NU6.3's branch ids keep v5's form.
// decoderawtransaction prints the v6 form under -compat=current and keeps zcashd v6.12.2's errors
// under -compat=6.12.2; getrawtransaction 1 prints it; getblock 2 renders v6 blocks on the render
// threads as inline.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAINNET, TESTNET, type NetworkParams } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { decodeTransaction, type Transaction } from '../../src/codec/tx/transaction.js';
import { CURRENT, ZCASHD_6_12_2, type CompatProfile } from '../../src/compat/profiles.js';
import { txToJson, txToJsonBytes } from '../../src/render/tx.js';
import { createDecodeRawTransaction } from '../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { RpcError } from '../../src/rpc/method.js';
import { inlineBlockRenderer, type BlockRenderRequest } from '../../src/rpc/workers/block-renderer.js';
import { RenderPool } from '../../src/rpc/workers/render-pool.js';
import { shieldedLayout } from '../support/v6-layout.js';
import { txJsonSkeleton } from '../support/tx-json-skeleton.js';
import { readHexVector } from '../support/vectors.js';
import { realTxBytes } from '../fuzz/corpus.js';
import { resultOf } from '../support/call.js';
import { mainnetGenesisRun, MemoryChainStore } from '../support/memory-store.js';
import { getRawTransactionMethod } from '../../src/rpc/methods/rawtransaction/getrawtransaction.js';
import { nu63BlockBytes, nu63Facts, type Nu63FactBlock, type Nu63FactTx } from '../support/nu63-facts.js';

type Json = Parameters<typeof txJsonSkeleton>[0];
interface OrchardJson {
  actions: Record<string, string>[];
  valueBalance: number;
  valueBalanceZat: number;
  flags?: Record<string, boolean>;
  anchor?: string;
}
interface TxJson {
  txid: string;
  version: number;
  size: number;
  overwintered: boolean;
  versiongroupid: string;
  hex: string;
  vin: unknown[];
  vout: unknown[];
  orchard: OrchardJson;
  ironwood?: OrchardJson;
}

const facts = nu63Facts;
const blockBytes = nu63BlockBytes;
const networkOf = (b: Nu63FactBlock): NetworkParams => (b.network === 'mainnet' ? MAINNET : TESTNET);
const skeletons = (
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'test-vectors', 'v6-json', 'skeletons.json'), 'utf8')) as {
    transactions: Record<string, Json>;
  }
).transactions;

interface V6Case {
  key: string;
  block: Nu63FactBlock;
  fact: Nu63FactTx;
  tx: Transaction;
}
const v6: V6Case[] = [];
const v5AfterNu62: V6Case[] = [];
for (const block of Object.values(facts)) {
  const decoded = decodeBlock(blockBytes(block), CURRENT_CHAIN_ACCEPTANCE);
  decoded.transactions.forEach((tx, i) => {
    const c = { key: `${block.network}/${block.height}#${i}`, block, fact: block.transactions[i]!, tx };
    if (tx.data.version === 6) v6.push(c);
    if (tx.data.version === 5) v5AfterNu62.push(c);
  });
}

/** zcashd's ValueFromAmount text of `zat`, written independently of the JSON writer. */
function amountText(zat: bigint): string {
  const sign = zat < 0n ? '-' : '';
  const abs = zat < 0n ? -zat : zat;
  return `${sign}${abs / 100_000_000n}.${(abs % 100_000_000n).toString().padStart(8, '0')}`;
}

it('the real blocks hold 23 v6 transactions and 12 v5 transactions with the NU6.2 branch id', () => {
  expect(v6).toHaveLength(23);
  expect(Object.keys(skeletons)).toEqual(v6.map((c) => c.key));
  expect(v5AfterNu62).toHaveLength(12);
  expect(new Set(v5AfterNu62.map((c) => c.fact.branch_id))).toEqual(new Set(['5437f330']));
});

describe.each(v6.map((c) => [c.key, c] as const))('v6 %s', (key, { block, fact, tx }) => {
  const text = txToJson(tx, networkOf(block));
  const json = JSON.parse(text) as TxJson;
  const layout = shieldedLayout(tx.bytes);

  it("renders with facts.json's txid, version, size and counts", () => {
    expect(json.txid).toBe(fact.txid);
    expect([json.version, json.overwintered, json.versiongroupid]).toEqual([6, true, 'd884b698']);
    expect(json.size).toBe(fact.size);
    expect(json.hex).toBe(Buffer.from(tx.bytes).toString('hex'));
    if (fact.vin !== undefined) expect(json.vin).toHaveLength(fact.vin);
    if (fact.vout !== undefined) expect(json.vout).toHaveLength(fact.vout);
    expect(json.orchard.actions).toHaveLength(fact.orchard_actions ?? 0);
    expect(json.ironwood!.actions).toHaveLength(fact.ironwood_actions ?? 0);
  });

  it('prints each Orchard-protocol component as the bytes ZIP 229 puts there', () => {
    for (const pool of ['orchard', 'ironwood'] as const) {
      const printed = json[pool]!;
      const raw = layout.bundles[pool];
      const factFlags = pool === 'orchard' ? fact.orchard_flags : fact.ironwood_flags;
      if (raw === undefined) {
        // No actions: zcashd's empty Orchard object (no flags, anchor, proof or binding signature).
        expect(Object.keys(printed)).toEqual(['actions', 'valueBalance', 'valueBalanceZat']);
        expect(printed.valueBalanceZat).toBe(0);
        continue;
      }
      expect(raw.flags).toBe(factFlags);
      expect(printed.flags).toEqual({
        enableSpends: (raw.flags & 1) !== 0,
        enableOutputs: (raw.flags & 2) !== 0,
        enableCrossAddress: (raw.flags & 4) !== 0,
      });
      expect(BigInt(printed.valueBalanceZat)).toBe(raw.valueBalance);
      expect(text).toContain(`"${pool}":{"actions":[`);
      const tail = `"valueBalance":${amountText(raw.valueBalance)},"valueBalanceZat":${raw.valueBalance},"flags":`;
      expect(text.slice(text.indexOf(`"${pool}":{`))).toContain(tail);
    }
  });

  it("matches its skeleton: member order, values, and every byte-copied member's range", () => {
    expect(JSON.stringify(txJsonSkeleton(json as unknown as Json, tx.bytes))).toBe(JSON.stringify(skeletons[key]));
  });

  it('is the same text through the byte writer', () => {
    expect(txToJsonBytes(tx, networkOf(block)).toString('utf8')).toBe(text);
  });
});

describe('named v6 transactions', () => {
  const byKey = (k: string) => JSON.parse(txToJson(v6.find((c) => c.key === k)!.tx, MAINNET)) as TxJson;

  it('the first v6 coinbase (mainnet 3428143) has empty Orchard and Ironwood objects', () => {
    const j = byKey('mainnet/3428143#0');
    expect(j.txid).toBe('99966bc3306f6c96ffc52293c87b165571b29c28652e639f661c8d9c1df35790');
    expect(j.orchard).toEqual({ actions: [], valueBalance: 0, valueBalanceZat: 0 });
    expect(j.ironwood).toEqual({ actions: [], valueBalance: 0, valueBalanceZat: 0 });
  });

  it('Orchard and Ironwood (mainnet 3428144 #2): Orchard without cross-address outputs, Ironwood with', () => {
    const j = byKey('mainnet/3428144#2');
    expect(j.orchard.flags).toEqual({ enableSpends: true, enableOutputs: true, enableCrossAddress: false });
    expect(j.ironwood!.flags).toEqual({ enableSpends: true, enableOutputs: true, enableCrossAddress: true });
    expect([j.orchard.valueBalanceZat, j.ironwood!.valueBalanceZat]).toEqual([1020000, -1000000]);
    const keys = Object.keys(j);
    expect(keys.slice(keys.indexOf('vjoinsplit'))).toEqual([
      'vjoinsplit',
      'valueBalance',
      'valueBalanceZat',
      'vShieldedSpend',
      'vShieldedOutput',
      'orchard',
      'ironwood',
    ]);
    expect(Object.keys(j.ironwood!.actions[0]!)).toEqual([
      'cv',
      'nullifier',
      'rk',
      'cmx',
      'ephemeralKey',
      'encCiphertext',
      'outCiphertext',
      'spendAuthSig',
    ]);
    expect(Object.keys(j.ironwood!)).toEqual(['actions', 'valueBalance', 'valueBalanceZat', 'flags', 'anchor', 'proof', 'bindingSig']);
  });

  it('Ironwood only (mainnet 3428146 #1) and Orchard only (mainnet 3428145 #2)', () => {
    const ironwoodOnly = byKey('mainnet/3428146#1');
    expect(ironwoodOnly.orchard).toEqual({ actions: [], valueBalance: 0, valueBalanceZat: 0 });
    expect(ironwoodOnly.ironwood!.actions).toHaveLength(2);
    const orchardOnly = byKey('mainnet/3428145#2');
    expect(orchardOnly.orchard.actions).toHaveLength(8);
    expect(orchardOnly.ironwood).toEqual({ actions: [], valueBalance: 0, valueBalanceZat: 0 });
  });
});

describe('v5 transactions with NU6.2 and NU6.3 branch ids', () => {
  // A NU5-branch v5 transaction with Orchard actions (mainnet 1687107 #4): the form v5 had before.
  const nu5 = JSON.parse(txToJson(decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex')).transactions[4]!, MAINNET)) as TxJson;

  it.each(v5AfterNu62.map((c) => [c.key, c] as const))('%s renders in v5 form', (_, { block, fact, tx }) => {
    const j = JSON.parse(txToJson(tx, networkOf(block))) as TxJson;
    expect([j.txid, j.version, j.versiongroupid, j.size]).toEqual([fact.txid, 5, '26a7270a', fact.size]);
    // The NU5 transaction has Sapling outputs, hence a Sapling bindingSig; none of these has.
    expect(Object.keys(j)).toEqual(Object.keys(nu5).filter((k) => k !== 'bindingSig'));
    expect('ironwood' in j).toBe(false);
    expect(j.orchard.actions).toHaveLength(fact.orchard_actions ?? 0);
    if (j.orchard.flags) expect(Object.keys(j.orchard.flags)).toEqual(['enableSpends', 'enableOutputs']);
    if (fact.orchard_actions) expect(Object.keys(j.orchard)).toEqual(Object.keys(nu5.orchard));
  });

  it('a v5 transaction given the NU6.3 branch id renders as with NU6.2, but for its digests', () => {
    const { tx } = v5AfterNu62.find((c) => c.fact.orchard_actions)!;
    const bytes = new Uint8Array(tx.bytes);
    Buffer.from(bytes.buffer, bytes.byteOffset).writeUInt32LE(0x37a5165b, 8);
    const nu63 = decodeTransaction(bytes, CURRENT_CHAIN_ACCEPTANCE);
    expect(nu63.data.consensusBranchId).toBe(0x37a5165b);
    const [a, b] = [tx, nu63].map((t) => JSON.parse(txToJson(t, MAINNET)) as Record<string, unknown>);
    expect(b!.txid).not.toBe(a!.txid);
    const without = (j: Record<string, unknown>) => JSON.stringify({ ...j, txid: 0, authdigest: 0, hex: 0 });
    expect(without(b!)).toBe(without(a!));
  });
});

describe('decoderawtransaction of a v6 transaction', () => {
  const method = createDecodeRawTransaction({ cacheBytes: 0 });
  const call = (profile: CompatProfile, hex: string) => method.call([hex], { network: MAINNET, profile, requestStop: () => {} });
  const orchardAndIronwood = v6.find((c) => c.key === 'mainnet/3428144#2')!.tx;
  const coinbase = v6.find((c) => c.key === 'mainnet/3428143#0')!.tx;
  const hexOf = (tx: Transaction) => Buffer.from(tx.bytes).toString('hex');

  it('-compat=current prints the v6 form', async () => {
    for (const tx of [orchardAndIronwood, coinbase]) {
      const reply = await call(CURRENT, hexOf(tx));
      expect(Buffer.from(reply as Buffer).toString('utf8')).toBe(txToJson(tx, MAINNET));
    }
  });

  it("-compat=6.12.2 answers zcashd v6.12.2's -22 for v6 and for a NU6.2-branch v5 transaction", async () => {
    const errorOf = async (hex: string) => {
      try {
        await call(ZCASHD_6_12_2, hex);
      } catch (e) {
        expect(e).toBeInstanceOf(RpcError);
        return [(e as RpcError).code, (e as RpcError).message];
      }
      throw new Error('decoded');
    };
    const S = ': unspecified iostream_category error';
    for (const tx of [orchardAndIronwood, coinbase]) {
      expect(await errorOf(hexOf(tx))).toEqual([-22, `TX decode failed: Unknown transaction format${S}`]);
    }
    const nu62 = v5AfterNu62.find((c) => c.fact.branch_id === '5437f330')!.tx;
    expect(await errorOf(hexOf(nu62))).toEqual([-22, `TX decode failed: CTransaction::UpdateHash: Invalid transaction format${S}`]);
    // A v5 transaction with NU5's branch id decodes under both profiles, to the same text.
    const nu5 = Buffer.from(realTxBytes('mainnet', 1687107, 4)).toString('hex');
    expect(String(await call(ZCASHD_6_12_2, nu5))).toBe(String(await call(CURRENT, nu5)));
  });
});

describe('getrawtransaction 1 of a v6 transaction', () => {
  // mainnet 3428145 as a block the store holds off its best chain (the fixture's best chain is mainnet 0..20).
  const fact = facts['mainnet/3428145']!;
  const bytes = blockBytes(fact);
  const getraw = getRawTransactionMethod(new MemoryChainStore(MAINNET, mainnetGenesisRun(), [{ bytes, height: 3428145, chainWork: 1n }]));

  it('prints TxToJSON with hex first and the block members of a block off the active chain', async () => {
    const decoded = decodeBlock(bytes, CURRENT_CHAIN_ACCEPTANCE);
    const tx = decoded.transactions[3]!;
    const reply = await resultOf(getraw, `["${tx.txidHex}", 1, "${fact.hash}"]`);
    const expected = txToJsonBytes(tx, MAINNET, {
      leadingHex: true,
      inActiveChain: false,
      block: { hash: decoded.hash, notIndexed: true },
    }).toString('utf8');
    expect(reply).toBe(expected);
    const j = JSON.parse(reply) as TxJson & Record<string, unknown>;
    expect(Object.keys(j).slice(0, 3)).toEqual(['in_active_chain', 'hex', 'txid']);
    expect([j.txid, j.version, j.blockhash, j.height, j.confirmations]).toEqual([fact.transactions[3]!.txid, 6, fact.hash, -1, 0]);
    expect(j.orchard.actions).toHaveLength(13);
  });
});

describe('getblock 2 of blocks with v6 transactions', () => {
  const pool = new RenderPool({ threads: 1, inlineMaxBytes: 0, idleMs: 300 });
  afterAll(() => pool.close());
  const asText = (r: string | Buffer) => (typeof r === 'string' ? r : r.toString('utf8'));

  it.each([
    ['mainnet', 3428145],
    ['testnet', 4134000],
  ] as const)('%s %i renders on a render thread as inline, each transaction as TxToJSON', async (network, height) => {
    const block = facts[`${network}/${height}`]!;
    const bytes = blockBytes(block);
    const decoded = decodeBlock(bytes, CURRENT_CHAIN_ACCEPTANCE);
    const req: BlockRenderRequest = {
      hash: decoded.hash,
      bytes,
      verbosity: 2,
      context: { height, confirmations: 1, chainWork: 1n, previousBlockHash: decoded.header.prevHash, nextBlockHash: null },
      network: networkOf(block),
    };
    const [threaded, inline] = await Promise.all([pool.render(req), inlineBlockRenderer.render(req)]);
    expect(asText(threaded)).toBe(asText(inline));
    const reply = JSON.parse(asText(inline)) as { hash: string; tx: TxJson[] };
    expect(reply.hash).toBe(block.hash);
    expect(reply.tx.map((t) => t.txid)).toEqual(block.transactions.map((t) => t.txid));
    reply.tx.forEach((t, i) => expect(t).toEqual(JSON.parse(txToJson(decoded.transactions[i]!, networkOf(block)))));
    expect(reply.tx.filter((t) => t.version === 6).length).toBe(block.transactions.filter((t) => t.version === 6).length);
  });
});
