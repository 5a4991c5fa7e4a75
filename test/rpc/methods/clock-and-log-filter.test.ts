// The node's clock (-mocktime, -clockoffset, setmocktime) and setlogfilter, as zcashd v6.12.2's
// util/time.cpp, init.cpp, rpc/misc.cpp and rpc/server.cpp: error texts and their order, and
// the filter directives read as tracing-subscriber's EnvFilter reads them.
import { describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, type NetworkParams } from '../../../src/chain/network.js';
import { NodeClock } from '../../../src/clock.js';
import { clockModeOption, ConfigError } from '../../../src/config.js';
import { handleJsonRpcBody } from '../../../src/rpc/dispatch.js';
import {
  levelFor,
  parseLevel,
  parseLogFilter,
  pinoLevelsFor,
  zcashdDefaultFilter,
  type LogFilter,
  type LogFilterTarget,
} from '../../../src/rpc/methods/control/log-filter.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { MethodRegistry } from '../../../src/rpc/registry.js';
import { fixtureStore } from '../../support/memory-store.js';

async function rpc(registry: MethodRegistry, method: string, params = '[]', network: NetworkParams = REGTEST) {
  const reply = await handleJsonRpcBody(Buffer.from(`{"id":1,"method":"${method}","params":${params}}`), registry, {
    network,
    requestStop: () => {},
  });
  const text = typeof reply.body === 'string' ? reply.body : Buffer.concat(reply.body).toString('utf8');
  return text.trimEnd();
}

const ok = (result: string) => `{"result":${result},"error":null,"id":1}`;
const err = (code: number, message: string) => `{"result":null,"error":{"code":${code},"message":${JSON.stringify(message)}},"id":1}`;

const options = (args: Record<string, string>) => ({ getArg: (name: string) => args[name] });

describe('the node clock', () => {
  it('is the system clock, a fixed time or the system clock shifted, as -mocktime and -clockoffset choose', () => {
    expect(clockModeOption(options({}))).toEqual({ kind: 'system' });
    expect(clockModeOption(options({ mocktime: '1700000000' }))).toEqual({ kind: 'fixed', seconds: 1700000000 });
    expect(clockModeOption(options({ clockoffset: '-3600' }))).toEqual({ kind: 'offset', seconds: -3600 });
    // 0 is each option's default: it selects the system clock.
    expect(clockModeOption(options({ mocktime: '0', clockoffset: '0' }))).toEqual({ kind: 'system' });
    expect(() => clockModeOption(options({ mocktime: '5', clockoffset: '7' }))).toThrow(
      new ConfigError('Error: -mocktime and -clockoffset cannot be used together'),
    );
    expect(() => clockModeOption(options({ mocktime: 'soon' }))).toThrow(
      "Error: Invalid value for -mocktime: 'soon' (expected an integer)",
    );
  });

  it('reads each mode: fixed in whole seconds, offset from the system time', () => {
    const fixed = new NodeClock({ kind: 'fixed', seconds: 1700000000 });
    expect(fixed.seconds()).toBe(1700000000);
    expect(fixed.millis()).toBe(1700000000000);
    fixed.setFixed(5);
    expect(fixed.seconds()).toBe(5);
    const before = Math.floor(Date.now() / 1000);
    const shifted = new NodeClock({ kind: 'offset', seconds: 86400 }).seconds();
    const after = Math.floor(Date.now() / 1000);
    expect(shifted).toBeGreaterThanOrEqual(before + 86400);
    expect(shifted).toBeLessThanOrEqual(after + 86400);
    expect(() => new NodeClock().setFixed(5)).toThrow('the clock is not fixed');
  });
});

describe('setmocktime', () => {
  const registryWith = (clock: NodeClock) => new MethodRegistry(storeMethods(fixtureStore(), { nodeClock: clock }));

  it('refuses other networks first, then a clock that is not fixed, then a timestamp that is not a number', async () => {
    const fixed = registryWith(new NodeClock({ kind: 'fixed', seconds: 1 }));
    expect(await rpc(fixed, 'setmocktime', '[1700000000]', MAINNET)).toBe(
      err(-1, 'setmocktime: for regression testing (-regtest mode) only'),
    );
    expect(await rpc(registryWith(new NodeClock()), 'setmocktime', '["x"]')).toBe(
      err(-1, 'setmocktime: the node must be started with `-mocktime` in order to use this API'),
    );
    expect(await rpc(fixed, 'setmocktime', '["1700000000"]')).toBe(err(-3, 'Expected type number, got string'));
    expect(await rpc(fixed, 'setmocktime', '[1.5]')).toBe(err(-1, 'JSON integer out of range'));
    expect(await rpc(fixed, 'setmocktime', '[]')).toContain('"code":-32602');
    // Past what the clock's milliseconds hold exactly (compat/deviations.ts, setmocktime-range).
    expect(await rpc(fixed, 'setmocktime', '[9007199254741]')).toBe(err(-8, 'setmocktime: timestamp out of range'));
    expect(await rpc(fixed, 'setmocktime', '[-9007199254740]')).toBe(ok('null'));
  });

  it('moves the time every method reads', async () => {
    const registry = registryWith(new NodeClock({ kind: 'fixed', seconds: 1600000000 }));
    expect(await rpc(registry, 'getnettotals')).toContain('"timemillis":1600000000000,');
    expect(await rpc(registry, 'setmocktime', '[1700000123]')).toBe(ok('null'));
    expect(await rpc(registry, 'getnettotals')).toContain('"timemillis":1700000123000,');
    expect(await rpc(registry, 'getnetworkinfo')).toContain('"warningstimestamp":1700000123}');
    expect(await rpc(registry, 'getinfo')).toContain('"errorstimestamp":1700000123');
  });

  it('is a hidden method: help names it, the command list does not', async () => {
    const registry = registryWith(new NodeClock());
    expect(registry.help('setmocktime')).toBe(
      'setmocktime timestamp\n\nSet the local time to given timestamp (-regtest only).\nThe node must be started with `-mocktime` in order to use this API.\n\nArguments:\n1. timestamp  (integer, required) Unix seconds-since-epoch timestamp.',
    );
    expect(registry.help('')).not.toContain('setmocktime');
    expect(registry.help('')).toContain('setlogfilter "directives"\n');
  });
});

describe('setlogfilter', () => {
  it("reads tracing's levels: 0–5, names in any case, the empty level as error", () => {
    expect(['0', '1', '2', '3', '4', '5', '6'].map(parseLevel)).toEqual(['off', 'error', 'warn', 'info', 'debug', 'trace', null]);
    expect(['INFO', 'Debug', 'off', '', 'verbose'].map(parseLevel)).toEqual(['info', 'debug', 'off', 'error', null]);
  });

  it('reads directives as EnvFilter::new does, skipping those it cannot read', () => {
    const f = parseLogFilter('info,rpc=debug,,net,main=loud,[span]=trace,main[s{a=b}]=trace,=warn');
    expect(f.defaultLevel).toBe('warn');
    expect([...f.targets]).toEqual([
      ['rpc', 'debug'],
      ['net', 'trace'],
    ]);
  });

  it('gives a target the longest directive it falls under, else the default, else off', () => {
    const f = parseLogFilter('error,main=info,main::sub=trace');
    expect(levelFor(f, 'main')).toBe('info');
    expect(levelFor(f, 'main::sub::deeper')).toBe('trace');
    expect(levelFor(f, 'mainly')).toBe('error');
    expect(levelFor(parseLogFilter('rpc=debug'), 'main')).toBe('off');
  });

  it("maps the main and rpc targets onto the node's and the HTTP layer's pino levels", () => {
    expect(pinoLevelsFor(parseLogFilter('error,main=info'))).toEqual({ node: 'info', http: 'error' });
    expect(pinoLevelsFor(parseLogFilter('error,main=info,rpc=debug'))).toEqual({ node: 'info', http: 'debug' });
    expect(pinoLevelsFor(parseLogFilter('trace'))).toEqual({ node: 'trace', http: 'trace' });
    expect(pinoLevelsFor(parseLogFilter('info'))).toEqual({ node: 'info', http: 'warn' });
    expect(pinoLevelsFor(parseLogFilter('rpc=debug'))).toEqual({ node: 'silent', http: 'debug' });
    expect(pinoLevelsFor(parseLogFilter('off'))).toEqual({ node: 'silent', http: 'silent' });
  });

  it("derives zcashd's default filter from the -debug flags (LogConfigFilter)", () => {
    expect(zcashdDefaultFilter([])).toBe('error,main=info');
    expect(zcashdDefaultFilter(['rpc', 'net', 'rpc'])).toBe('error,main=info,net=debug,rpc=debug');
    expect(zcashdDefaultFilter(['rpc', '1'])).toBe('debug');
    expect(zcashdDefaultFilter([''])).toBe('debug');
  });

  it('applies a filter, resets on an empty one, and answers null', async () => {
    const seen: (LogFilter | 'reset')[] = [];
    const target: LogFilterTarget = {
      defaultFilter: 'error,main=info,rpc=debug',
      apply: (filter) => seen.push(filter),
      reset: () => seen.push('reset'),
    };
    const registry = new MethodRegistry(storeMethods(fixtureStore(), { logFilter: target }));
    expect(await rpc(registry, 'setlogfilter', '["main=debug,rpc=info"]')).toBe(ok('null'));
    expect(await rpc(registry, 'setlogfilter', '[""]')).toBe(ok('null'));
    // UniValue's getValStr: false and null are the empty string, a number its text.
    expect(await rpc(registry, 'setlogfilter', '[false]')).toBe(ok('null'));
    expect(await rpc(registry, 'setlogfilter', '[3]')).toBe(ok('null'));
    expect(seen).toEqual([
      {
        defaultLevel: null,
        targets: new Map([
          ['main', 'debug'],
          ['rpc', 'info'],
        ]),
      },
      'reset',
      'reset',
      { defaultLevel: 'info', targets: new Map() },
    ]);
    const help = registry.help('setlogfilter');
    expect(help).toContain('\nThe default filter, derived from the -debug=target flags, is:\n\n    error,main=info,rpc=debug\n');
    expect(help.startsWith('setlogfilter "directives"\n\nSets the filter to be used for selecting events to log.\n')).toBe(true);
  });

  it('answers null and changes nothing on a server without a log', async () => {
    const registry = new MethodRegistry(storeMethods(fixtureStore()));
    expect(await rpc(registry, 'setlogfilter', '["debug"]')).toBe(ok('null'));
  });
});
