// gettxout over the real LevelDB store holding mainnet 0..20: every output of every block
// against the same output as getrawtransaction renders it (value, scriptPubKey), with
// confirmations from the tip, the transaction's version and the coinbase flag; the genesis
// coinbase (never in zcashd's coins view), unknown outputs and bad arguments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { UpstreamRelay } from '../../../src/rpc/methods/mempool/upstream-relay.js';
import { openChainStore, type ChainStore } from '../../../src/store/index.js';
import { errorOf, resultOf } from '../../support/call.js';
import { mainnetGenesisRun } from '../../support/memory-store.js';
import { tempDir } from '../../support/store.js';
import { UpstreamServer } from '../../support/upstream-server.js';

describe('gettxout from the coins view', () => {
  const dir = tempDir('gettxout');
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

  it('answers every unspent output of blocks 1..20 as getrawtransaction shows it', async () => {
    const gettxout = methods.get('gettxout')!;
    const tipHash = decodeBlock(blocks[20]!).hashHex;
    let outputs = 0;
    for (let h = 1; h <= 20; h++) {
      for (const tx of decodeBlock(blocks[h]!).transactions) {
        const raw = JSON.parse(await resultOf(methods.get('getrawtransaction')!, `["${tx.txidHex}", 1]`)) as {
          version: number;
          vout: { value: number; scriptPubKey: unknown }[];
        };
        for (let n = 0; n < raw.vout.length; n++) {
          for (const mempool of ['', ', false', ', true']) {
            const reply = JSON.parse(await resultOf(gettxout, `["${tx.txidHex}", ${n}${mempool}]`)) as Record<string, unknown>;
            expect(reply).toEqual({
              bestblock: tipHash,
              confirmations: 20 - h + 1,
              value: raw.vout[n]!.value,
              scriptPubKey: raw.vout[n]!.scriptPubKey,
              version: raw.version,
              coinbase: true,
            });
            expect(Object.keys(reply)).toEqual(['bestblock', 'confirmations', 'value', 'scriptPubKey', 'version', 'coinbase']);
          }
          outputs++;
        }
        expect(await resultOf(gettxout, `["${tx.txidHex}", ${raw.vout.length}]`)).toBe('null');
      }
    }
    expect(outputs).toBeGreaterThanOrEqual(20);
    // Block 20's coinbase: the exact text (amounts with eight decimals, members in order).
    const cb20 = decodeBlock(blocks[20]!).transactions[0]!.txidHex;
    expect(await resultOf(gettxout, `["${cb20}", 0]`)).toMatch(
      new RegExp(
        `^\\{"bestblock":"${tipHash}","confirmations":1,"value":\\d+\\.\\d{8},"scriptPubKey":\\{"asm":"[^"]+","hex":"[0-9a-f]+","reqSigs":1,"type":"(pubkeyhash|pubkey)","addresses":\\["t1[1-9A-HJ-NP-Za-km-z]+"\\]\\},"version":1,"coinbase":true\\}$`,
      ),
    );
  });

  it('null for the genesis coinbase, unknown outputs and negative indexes; zcashd errors otherwise', async () => {
    const gettxout = methods.get('gettxout')!;
    const genesisCoinbase = decodeBlock(blocks[0]!).transactions[0]!.txidHex;
    expect(await resultOf(gettxout, `["${genesisCoinbase}", 0]`)).toBe('null');
    expect(await resultOf(gettxout, `["${'00'.repeat(32)}", 0]`)).toBe('null');
    const cb1 = decodeBlock(blocks[1]!).transactions[0]!.txidHex;
    expect(await resultOf(gettxout, `["${cb1}", -1]`)).toBe('null');
    // uint256S: lenient, so "0x" + hash and trailing junk still name the same transaction.
    expect(await resultOf(gettxout, `["0x${cb1}zz", 0]`)).toBe(await resultOf(gettxout, `["${cb1}", 0]`));
    expect(await errorOf(gettxout, `[5, 0]`)).toEqual({ code: -1, message: 'JSON value is not a string as expected' });
    expect(await errorOf(gettxout, `["${cb1}", "0"]`)).toEqual({ code: -1, message: 'JSON value is not an integer as expected' });
    expect(await errorOf(gettxout, `["${cb1}", 0, 1]`)).toEqual({ code: -1, message: 'JSON value is not a boolean as expected' });
  });

  it('with -upstream, includemempool (the default) is answered by the upstream node', async () => {
    const upstream = new UpstreamServer(null);
    const url = await upstream.start();
    try {
      upstream.setChain(blocks.slice(0, 2));
      const relayed = new Map(storeMethods(store, { upstream: new UpstreamRelay(url, { timeoutMs: 2000 }) }).map((m) => [m.name, m]));
      const cb1 = decodeBlock(blocks[1]!).transactions[0]!.txidHex;
      // The test upstream serves no gettxout: its error is relayed.
      expect(await errorOf(relayed.get('gettxout')!, `["${cb1}", 0]`)).toEqual({ code: -32601, message: 'Method not found' });
      expect(await errorOf(relayed.get('gettxout')!, `["${cb1}", 0, true]`)).toEqual({ code: -32601, message: 'Method not found' });
      expect(await resultOf(relayed.get('gettxout')!, `["${cb1}", 0, false]`)).toBe(
        await resultOf(methods.get('gettxout')!, `["${cb1}", 0]`),
      );
    } finally {
      await upstream.stop();
    }
  });
});
