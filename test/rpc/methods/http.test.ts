// The read methods behind the real RPC server (src/rpc/server.ts): reply envelopes, HTTP
// status and the parameter-count error that appends the method's zcashd help text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { loadNodeConfig } from '../../../src/config.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { GETBLOCK_HELP } from '../../../src/rpc/methods/blockchain/getblock.js';
import { startRpcServer, type RunningRpcServer } from '../../../src/rpc/http/server.js';
import { tempDir } from '../../support/store.js';
import { MemoryChainStore, mainnetGenesisRun } from '../../support/memory-store.js';

const BLOCK1 = '0007bc227e1c57a4a70e237cad00e7b7ce565155ab49166bc57397a26d339283';
const dir = tempDir('rpc-http');
let server: RunningRpcServer;

async function post(body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${server.port}/`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from('u:p').toString('base64') },
    body,
  });
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  const config = loadNodeConfig([`-datadir=${dir.path}`, '-rpcport=0', '-rpcuser=u', '-rpcpassword=p']);
  server = await startRpcServer({ config, methods: storeMethods(new MemoryChainStore(MAINNET, mainnetGenesisRun())) });
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

describe('read methods over HTTP', () => {
  it('getblockhash / getblockcount replies', async () => {
    expect(await post('{"id":1,"method":"getblockhash","params":[1]}')).toEqual({
      status: 200,
      text: `{"result":"${BLOCK1}","error":null,"id":1}\n`,
    });
    expect(await post('{"id":"x","method":"getblockcount"}')).toEqual({ status: 200, text: '{"result":20,"error":null,"id":"x"}\n' });
  });

  it("getblock with no parameters: -32602 with zcashd's help text, HTTP 500", async () => {
    const { status, text } = await post('{"id":1,"method":"getblock","params":[]}');
    expect(status).toBe(500);
    const message = 'Not enough parameters for method `getblock`. Needed at least 1 and at most 2, but received 0\n\n' + GETBLOCK_HELP;
    expect(JSON.parse(text)).toEqual({ result: null, error: { code: -32602, message }, id: 1 });
  });

  it('help getblockheader returns the full help text', async () => {
    const { text } = await post('{"id":1,"method":"help","params":["getblockheader"]}');
    expect((JSON.parse(text) as { result: string }).result.split('\n').slice(0, 2)).toEqual(['getblockheader "hash" ( verbose )', '']);
  });

  it('errors keep their code: -8 for a bad height, -5 for an unknown block', async () => {
    expect((await post('{"id":1,"method":"getblock","params":["-0"]}')).text).toBe(
      '{"result":null,"error":{"code":-8,"message":"Invalid block height parameter"},"id":1}\n',
    );
    expect((await post(`{"id":1,"method":"getblock","params":["${'ab'.repeat(32)}"]}`)).text).toBe(
      '{"result":null,"error":{"code":-5,"message":"Block not found"},"id":1}\n',
    );
  });
});
