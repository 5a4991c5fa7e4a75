// decode-tx and decode-block take zcashd-style options (`-name=value`, `-testnet`) as every other
// command does, besides their `--long` spelling.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { normalizeDecodeArgs } from '../../src/cli/decode.js';
import { vectorPath } from '../support/vectors.js';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/timeouts.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const cli = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', resolve(root, 'src/cli.ts'), ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });

// A regtest-style coinbase paying a P2PK and a P2SH output.
const TX =
  '01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff025100ffffffff0250c30000000000002321027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875acd43000000000000017a9147d46a730d31f97b1930d3368a967c309bd4d136a8700000000';

// Each test here does seconds of CPU work (CLI processes started, multi-megabyte blocks rendered):
// on a machine whose cores are shared many times over that stretches past vitest's 60 s default,
// which is there to catch a hang. HEAVY_TEST_TIMEOUT_MS still catches one.
describe('decode-tx and decode-block options', { timeout: HEAVY_TEST_TIMEOUT_MS }, () => {
  it('map zcashd-style options onto the long ones, leaving hex, @file and - alone', () => {
    expect(normalizeDecodeArgs(['-network=testnet', '-pretty', '-testnet', '-regtest', '--pretty', '-', '@x.hex', 'ab'])).toEqual([
      '--network=testnet',
      '--pretty',
      '--network=testnet',
      '--network=regtest',
      '--pretty',
      '-',
      '@x.hex',
      'ab',
    ]);
  });

  it('print the same result for -network=testnet, -testnet and --network testnet', () => {
    const long = cli(['decode-tx', '--network', 'testnet', '--pretty', TX]);
    expect(long.status).toBe(0);
    // The P2SH output in testnet's encoding.
    expect(long.stdout).toContain('"t2');
    expect(cli(['decode-tx', '-network=testnet', '-pretty', TX]).stdout).toBe(long.stdout);
    expect(cli(['decode-tx', '-testnet', '-pretty', TX]).stdout).toBe(long.stdout);
    const block = cli(['decode-block', '-testnet', `@${vectorPath('blocks', 'testnet', '1.hex')}`]);
    expect(block.status).toBe(0);
    expect(block.stdout).toBe(cli(['decode-block', '--network=testnet', `@${vectorPath('blocks', 'testnet', '1.hex')}`]).stdout);
  });

  it('refuse an option they do not have, naming the command', () => {
    const r = cli(['decode-tx', '-nosuch=1', TX]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("Error: zecrpc decode-tx: unknown option '--nosuch=1'. See 'zecrpc decode-tx -help'.\n");
  });
});
