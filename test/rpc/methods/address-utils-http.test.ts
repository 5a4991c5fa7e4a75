// The address and script utilities behind the real RPC server, called by the bitcoin-core npm
// client unmodified (its generic `command`), as an exchange or explorer calls them.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { loadNodeConfig } from '../../../src/config.js';
import { startRpcServer, type RunningRpcServer } from '../../../src/rpc/http/server.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { readJsonVector } from '../../support/vectors.js';
import { tempDir } from '../../support/store.js';
import { MemoryChainStore, mainnetGenesisRun } from '../../support/memory-store.js';

interface Client {
  command(...args: unknown[]): Promise<unknown>;
}

const dir = tempDir('rpc-address-utils');
let server: RunningRpcServer;
let client: Client;

beforeAll(async () => {
  const config = loadNodeConfig([`-datadir=${dir.path}`, '-rpcport=0', '-rpcuser=u', '-rpcpassword=p']);
  server = await startRpcServer({ config, methods: storeMethods(new MemoryChainStore(MAINNET, mainnetGenesisRun())) });
  const Bitcoin = createRequire(import.meta.url)('bitcoin-core') as new (o: object) => Client;
  client = new Bitcoin({
    host: `http://127.0.0.1:${server.port}`,
    username: 'u',
    password: 'p',
    logger: { debug() {}, info() {}, error() {}, warn() {} },
  });
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

const ua = (readJsonVector<unknown[][]>('zip', 'json', 'unified_address.json')[2] as string[])[6]!;

describe('bitcoin-core client', () => {
  it('validateaddress and z_validateaddress', async () => {
    expect(await client.command('validateaddress', 't1T8yaLVhNqxA5KJcmiqqFN88e8DNp2PBfF')).toEqual({
      isvalid: true,
      address: 't1T8yaLVhNqxA5KJcmiqqFN88e8DNp2PBfF',
      scriptPubKey: '76a91465a16059864a2fdbc7c99a4723a8395bc6f188eb88ac',
      ismine: false,
      iswatchonly: false,
      isscript: false,
    });
    expect(await client.command('z_validateaddress', ua)).toEqual({ isvalid: true, address: ua, address_type: 'unified' });
    expect(Object.keys((await client.command('z_listunifiedreceivers', ua)) as object)).toEqual(['sapling', 'p2pkh']);
  });

  it('decodescript, createmultisig, verifymessage, createrawtransaction', async () => {
    expect(await client.command('decodescript', '5100')).toMatchObject({ asm: '1 0', type: 'nonstandard' });
    const key = '03b0da749730dc9b4b1f4a14d6902877a92541f5368778853d9c4a0cb7802dcfb2';
    expect(await client.command('createmultisig', 1, [key])).toMatchObject({ redeemScript: `5121${key}51ae` });
    expect(await client.command('verifymessage', 't1T8yaLVhNqxA5KJcmiqqFN88e8DNp2PBfF', 'AAAA', 'm')).toBe(false);
    // The store's tip is block 20: the next block is before Overwinter, a v1 transaction.
    expect(await client.command('createrawtransaction', [], {})).toBe('01000000000000000000');
  });

  it("zcashd's error codes reach the client", async () => {
    await expect(client.command('z_listunifiedreceivers', 'nope')).rejects.toMatchObject({ code: -5, message: 'Invalid address' });
    await expect(client.command('createmultisig', 0, [])).rejects.toMatchObject({
      code: -1,
      message: 'a multisignature address must require at least one key to redeem',
    });
    await expect(client.command('validateaddress')).rejects.toMatchObject({ code: -32602 });
  });
});
