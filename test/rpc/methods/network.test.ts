// The network category and getmemoryinfo as zcashd v6.12.2 answers with no connections
// (src/rpc/net.cpp, misc.cpp), byte for byte; the ban list against zcashd's own rpc_ban case
// (src/test/rpc_tests.cpp) and nodehandling.py; the param-count errors of src/rpc/common.h.
import { afterEach, describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, type NetworkParams } from '../../../src/chain/network.js';
import { handleJsonRpcBody } from '../../../src/rpc/dispatch.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { UpstreamRelay } from '../../../src/rpc/methods/mempool/upstream-relay.js';
import { networkMethods } from '../../../src/rpc/methods/network/index.js';
import { SETBAN_HELP } from '../../../src/rpc/methods/network/setban.js';
import { ADDNODE_HELP } from '../../../src/rpc/methods/network/addnode.js';
import { MethodRegistry } from '../../../src/rpc/registry.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { fixtureStore, mainnetGenesisRun } from '../../support/memory-store.js';
import { UpstreamServer } from '../../support/upstream-server.js';

const NOW = 1_764_000_000;

function registryOf(methods: RpcMethod[]): MethodRegistry {
  return new MethodRegistry(methods);
}

async function rpc(registry: MethodRegistry, method: string, params = '[]', network: NetworkParams = MAINNET) {
  const reply = await handleJsonRpcBody(Buffer.from(`{"id":1,"method":"${method}","params":${params}}`), registry, {
    network,
    requestStop: () => {},
  });
  const text = typeof reply.body === 'string' ? reply.body : Buffer.concat(reply.body).toString('utf8');
  return text.trimEnd();
}

const ok = (result: string) => `{"result":${result},"error":null,"id":1}`;
const err = (code: number, message: string) => `{"result":null,"error":{"code":${code},"message":${JSON.stringify(message)}},"id":1}`;

function peerless(resolver?: (host: string) => Promise<Uint8Array[]>) {
  let now = NOW;
  const registry = registryOf(networkMethods(fixtureStore(), { clock: () => now, resolver }));
  return { registry, tick: (s: number) => (now += s) };
}

describe('network status of a node without peers', () => {
  let upstream: UpstreamServer | null = null;
  afterEach(async () => {
    await upstream?.stop();
    upstream = null;
  });

  it('getnetworkinfo: v6.12.2, no connections, no proxies, onion unreachable, no warnings', async () => {
    const { registry } = peerless();
    expect(await rpc(registry, 'getnetworkinfo')).toBe(
      ok(
        '{"version":6120250,"subversion":"/MagicBean:6.12.2/","protocolversion":170140,"localservices":"0000000000000005",' +
          '"timeoffset":0,"connections":0,"networks":[' +
          '{"name":"ipv4","limited":false,"reachable":true,"proxy":"","proxy_randomize_credentials":false},' +
          '{"name":"ipv6","limited":false,"reachable":true,"proxy":"","proxy_randomize_credentials":false},' +
          '{"name":"onion","limited":true,"reachable":false,"proxy":"","proxy_randomize_credentials":false}],' +
          `"relayfee":0.00000100,"localaddresses":[],"warnings":"","warningstimestamp":${NOW}}`,
      ),
    );
    expect(await rpc(registry, 'getnetworkinfo', '[1]')).toContain(
      '"error":{"code":-32602,"message":"Too many parameters for method `getnetworkinfo`. Needed exactly 0, but received 1\\n\\ngetnetworkinfo\\n',
    );
  });

  it('getnetworkinfo reports an unreachable -upstream in warnings, and nothing once it answers', async () => {
    upstream = new UpstreamServer(null);
    const url = await upstream.start();
    const relay = new UpstreamRelay(url, { timeoutMs: 2000 });
    const registry = registryOf(networkMethods(fixtureStore(), { clock: () => NOW, upstream: relay }));
    upstream.setChain(mainnetGenesisRun().slice(0, 1));
    expect(await rpc(registry, 'getnetworkinfo')).toContain(`"warnings":"","warningstimestamp":${NOW}}`);
    upstream.misbehave = 'garbage';
    expect(await rpc(registry, 'getnetworkinfo')).toContain(`"warnings":"upstream node ${url}: its reply to getblockcount is not JSON"`);
    await upstream.stop();
    upstream = null;
    const reply = await rpc(registry, 'getnetworkinfo');
    // The cause is the socket's (a refused connection, or a kept-alive socket closed under it).
    expect(reply).toMatch(new RegExp(`"warnings":"upstream node ${url}: cannot reach it \\([A-Z_]+\\)"`));
    expect(reply).toContain('"connections":0,');
  });

  it('getpeerinfo, getconnectioncount, ping, getnettotals, disconnectnode', async () => {
    const { registry } = peerless();
    expect(await rpc(registry, 'getpeerinfo')).toBe(ok('[]'));
    expect(await rpc(registry, 'getconnectioncount')).toBe(ok('0'));
    expect(await rpc(registry, 'ping')).toBe(ok('null'));
    const totals = JSON.parse(await rpc(registry, 'getnettotals')) as { result: Record<string, unknown> };
    expect(totals.result.uploadtarget).toEqual({
      timeframe: 86400,
      target: 0,
      target_reached: false,
      serve_historical_blocks: true,
      bytes_left_in_cycle: 0,
      time_left_in_cycle: 0,
    });
    expect(Object.keys(totals.result)).toEqual(['totalbytesrecv', 'totalbytessent', 'timemillis', 'uploadtarget']);
    expect([totals.result.totalbytesrecv, totals.result.totalbytessent]).toEqual([0, 0]);
    expect(await rpc(registry, 'disconnectnode', '["192.168.0.6:8233"]')).toBe(err(-29, 'Node not found in connected nodes'));
    expect(await rpc(registry, 'disconnectnode', '[5]')).toBe(err(-1, 'JSON value is not a string as expected'));
    expect(await rpc(registry, 'disconnectnode')).toContain(
      'Not enough parameters for method `disconnectnode`. Needed exactly 1, but received 0',
    );
  });

  it('addnode and getaddednodeinfo keep the addnode list as zcashd does', async () => {
    const resolved: string[] = [];
    const { registry } = peerless(async (host) => {
      resolved.push(host);
      return host === 'seed.example' ? [new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 9])] : [];
    });
    expect(await rpc(registry, 'addnode', '["192.168.0.6:8233","onetry"]')).toBe(ok('null'));
    expect(await rpc(registry, 'getaddednodeinfo', '[false]')).toBe(ok('[]'));
    expect(await rpc(registry, 'addnode', '["192.168.0.201","add"]')).toBe(ok('null'));
    expect(await rpc(registry, 'addnode', '["192.168.0.201","add"]')).toBe(err(-23, 'Error: Node already added'));
    expect(await rpc(registry, 'addnode', '["[2001:4d48::1]:9000","add"]')).toBe(ok('null'));
    expect(await rpc(registry, 'addnode', '["seed.example","add"]')).toBe(ok('null'));
    expect(await rpc(registry, 'addnode', '["nowhere.example","add"]')).toBe(ok('null'));
    expect(await rpc(registry, 'getaddednodeinfo', '[false]')).toBe(
      ok(
        '[{"addednode":"192.168.0.201"},{"addednode":"[2001:4d48::1]:9000"},{"addednode":"seed.example"},{"addednode":"nowhere.example"}]',
      ),
    );
    // An unresolvable name is left out, as zcashd never pushes its object.
    expect(await rpc(registry, 'getaddednodeinfo', '[true]')).toBe(
      ok(
        '[{"addednode":"192.168.0.201","connected":false,"addresses":[{"address":"192.168.0.201:8233","connected":"false"}]},' +
          '{"addednode":"[2001:4d48::1]:9000","connected":false,"addresses":[{"address":"[2001:4d48::1]:9000","connected":"false"}]},' +
          '{"addednode":"seed.example","connected":false,"addresses":[{"address":"10.0.0.9:8233","connected":"false"}]}]',
      ),
    );
    expect(resolved).toEqual(['seed.example', 'nowhere.example']);
    expect(await rpc(registry, 'getaddednodeinfo', '[true,"192.168.0.201"]', REGTEST)).toBe(
      ok('[{"addednode":"192.168.0.201","connected":false,"addresses":[{"address":"192.168.0.201:18344","connected":"false"}]}]'),
    );
    expect(await rpc(registry, 'getaddednodeinfo', '[true,"10.1.1.1"]')).toBe(err(-24, 'Error: Node has not been added.'));
    expect(await rpc(registry, 'getaddednodeinfo', '["true"]')).toBe(err(-1, 'JSON value is not a boolean as expected'));
    expect(await rpc(registry, 'addnode', '["192.168.0.201","remove"]')).toBe(ok('null'));
    expect(await rpc(registry, 'addnode', '["192.168.0.201","remove"]')).toBe(err(-24, 'Error: Node has not been added.'));
    expect(await rpc(registry, 'addnode', '["192.168.0.201","connect"]')).toBe(err(-1, ADDNODE_HELP));
    expect(await rpc(registry, 'addnode', '["192.168.0.201",1]')).toBe(err(-1, 'JSON value is not a string as expected'));
  });

  it("setban and listbanned: zcashd's rpc_ban expectations", async () => {
    const { registry, tick } = peerless();
    const list = async () =>
      JSON.parse(await rpc(registry, 'listbanned')).result as {
        address: string;
        banned_until: number;
        ban_created: number;
        ban_reason: string;
      }[];
    expect(await rpc(registry, 'setban', '["127.0.0.0","add"]')).toBe(ok('null'));
    expect(await rpc(registry, 'setban', '["127.0.0.0:8334"]')).toContain(
      'Not enough parameters for method `setban`. Needed at least 2 and at most 4, but received 1',
    );
    expect(await rpc(registry, 'listbanned')).toBe(
      ok(`[{"address":"127.0.0.0/32","banned_until":${NOW + 86400},"ban_created":${NOW},"ban_reason":"manually added"}]`),
    );
    expect(await rpc(registry, 'setban', '["127.0.0.0","remove"]')).toBe(ok('null'));
    expect(await list()).toEqual([]);
    expect(await rpc(registry, 'setban', '["127.0.0.0/24","add",9907731200,true]')).toBe(ok('null'));
    expect((await list()).map((b) => [b.address, b.banned_until])).toEqual([['127.0.0.0/24', 9907731200]]);
    expect(await rpc(registry, 'clearbanned')).toBe(ok('null'));
    expect(await rpc(registry, 'setban', '["127.0.0.0/24","add",200]')).toBe(ok('null'));
    expect((await list()).map((b) => [b.address, b.banned_until])).toEqual([['127.0.0.0/24', NOW + 200]]);
    expect(await rpc(registry, 'setban', '["127.0.0.1","add"]')).toBe(err(-23, 'Error: IP/Subnet already banned'));
    expect(await rpc(registry, 'setban', '["127.0.0.1","remove"]')).toBe(err(-1, 'Error: Unban failed'));
    expect(await rpc(registry, 'setban', '["127.0.0.0/24","remove"]')).toBe(ok('null'));
    expect(await list()).toEqual([]);
    expect(await rpc(registry, 'setban', '["127.0.0.0/255.255.0.0","add"]')).toBe(ok('null'));
    expect((await list()).map((b) => b.address)).toEqual(['127.0.0.0/16']);
    expect(await rpc(registry, 'setban', '["127.0.1.1","add"]')).toBe(err(-23, 'Error: IP/Subnet already banned'));
    expect(await rpc(registry, 'clearbanned')).toBe(ok('null'));
    expect(await rpc(registry, 'setban', '["test","add"]')).toBe(err(-23, 'Error: Invalid IP/Subnet'));
    expect(await rpc(registry, 'setban', '["FE80:0000:0000:0000:0202:B3FF:FE1E:8329","add"]')).toBe(ok('null'));
    expect((await list()).map((b) => b.address)).toEqual(['fe80::202:b3ff:fe1e:8329/128']);
    await rpc(registry, 'clearbanned');
    expect(await rpc(registry, 'setban', '["2001:db8::/ffff:fffc:0:0:0:0:0:0","add"]')).toBe(ok('null'));
    expect((await list()).map((b) => b.address)).toEqual(['2001:db8::/30']);
    await rpc(registry, 'clearbanned');
    expect(await rpc(registry, 'setban', '["2001:4d48:ac57:400:cacf:e9ff:fe1d:9c63/128","add"]')).toBe(ok('null'));
    expect((await list()).map((b) => b.address)).toEqual(['2001:4d48:ac57:400:cacf:e9ff:fe1d:9c63/128']);
    await rpc(registry, 'clearbanned');

    // nodehandling.py: the map's order (network bytes, then mask), a /19 kept as written.
    await rpc(registry, 'setban', '["127.0.0.0/32","add"]');
    await rpc(registry, 'setban', '["127.0.0.0/24","add"]');
    await rpc(registry, 'setban', '["192.168.0.1","add",1]');
    await rpc(registry, 'setban', '["2001:4d48:ac57:400:cacf:e9ff:fe1d:9c63/19","add",1000]');
    expect((await list()).map((b) => b.address)).toEqual(['127.0.0.0/24', '127.0.0.0/32', '192.168.0.1/32', '2001:4000::/19']);
    tick(2);
    // The expired ban no longer blocks a new one.
    expect(await rpc(registry, 'setban', '["192.168.0.1","add"]')).toBe(ok('null'));
    expect((await list()).find((b) => b.address === '192.168.0.1/32')?.banned_until).toBe(NOW + 2 + 86400);

    // An int64 end beyond 2^53 is kept exactly.
    await rpc(registry, 'clearbanned');
    expect(await rpc(registry, 'setban', '["10.9.9.9","add",9007199254740993,true]')).toBe(ok('null'));
    expect(await rpc(registry, 'listbanned')).toBe(
      ok(`[{"address":"10.9.9.9/32","banned_until":9007199254740993,"ban_created":${NOW + 2},"ban_reason":"manually added"}]`),
    );
    expect(await rpc(registry, 'setban', '["10.0.0.1","ban"]')).toBe(err(-1, SETBAN_HELP));
    expect(await rpc(registry, 'setban', '["0.0.0.0","add"]')).toBe(err(-23, 'Error: Invalid IP/Subnet'));
    expect(await rpc(registry, 'setban', '["10.0.0.0/33","add"]')).toBe(err(-23, 'Error: Invalid IP/Subnet'));
    expect(await rpc(registry, 'setban', '["10.0.0.1","add","1"]')).toBe(err(-1, 'JSON value is not an integer as expected'));
    expect(await rpc(registry, 'setban', '["10.0.0.1",true]')).toBe(err(-1, 'JSON value is not a string as expected'));
    expect(await rpc(registry, 'listbanned', '[1]')).toContain('"code":-32602');
  });

  it('getdeprecationinfo: end of service on mainnet only, the default feature lists', async () => {
    const { registry } = peerless();
    const lists =
      '"deprecated_features":["createrawtransaction","fundrawtransaction","getnetworkhashps","keypoolrefill","settxfee","signrawtransaction","z_gettotalbalance"],' +
      '"disabled_features":["addrtype","deprecationinfo_deprecationheight","gbt_oldhashes","getnewaddress","getrawchangeaddress","legacy_privacy","wallettxvjoinsplit","z_getbalance","z_getnewaddress","z_listaddresses"]';
    // The fixture's tip is mainnet block 20: (3417100 − 20) blocks of 75 s to come.
    expect(await rpc(registry, 'getdeprecationinfo')).toBe(
      ok(
        `{"version":6120250,"subversion":"/MagicBean:6.12.2/","end_of_service":{"block_height":3417100,"estimated_time":${NOW + (3417100 - 20) * 75}},${lists}}`,
      ),
    );
    expect(await rpc(registry, 'getdeprecationinfo', '[]', REGTEST)).toBe(
      ok(`{"version":6120250,"subversion":"/MagicBean:6.12.2/",${lists}}`),
    );
  });

  it('getmemoryinfo: a locked-memory manager holding nothing, listed under control', async () => {
    const registry = registryOf(storeMethods(fixtureStore()));
    expect(await rpc(registry, 'getmemoryinfo')).toBe(
      ok('{"locked":{"used":0,"free":0,"total":0,"locked":0,"chunks_used":0,"chunks_free":0}}'),
    );
    expect(registry.help('')).toContain('== Control ==\ngetexperimentalfeatures\ngetinfo\ngetmemoryinfo\n');
    expect(registry.help('')).toContain(
      '== Network ==\naddnode "node" "add|remove|onetry"\nclearbanned\ndisconnectnode "node" \ngetaddednodeinfo dns ( "node" )\ngetconnectioncount\ngetdeprecationinfo\ngetnettotals\ngetnetworkinfo\ngetpeerinfo\nlistbanned\nping\nsetban "ip(/netmask)" "add|remove" (bantime) (absolute)',
    );
  });
});
