import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAINNET, TESTNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { decodeTransactionHex } from '../../src/codec/tx/transaction.js';
import { decodedBlockToJson } from '../../src/render/block.js';
import { prettyPrint } from '../../src/json/pretty.js';
import { txToJson } from '../../src/render/tx.js';
import { readHexVector, vectorPath } from '../support/vectors.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = (args: string[], input?: string, stdoutFile?: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', resolve(root, 'src/cli.ts'), ...args], {
    cwd: root,
    input,
    encoding: 'utf8',
    timeout: 60_000,
    ...(stdoutFile ? { stdio: ['pipe', openSync(stdoutFile, 'w'), 'pipe'] } : {}),
  });

const COINBASE =
  '01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff025100ffffffff0250c30000000000002321027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875acd43000000000000017a9147d46a730d31f97b1930d3368a967c309bd4d136a8700000000';

describe('zecrpc decode-tx / decode-block (CLI)', () => {
  it('prints the compact result with one trailing newline, and the pretty form with --pretty', () => {
    const compact = txToJson(decodeTransactionHex(COINBASE), MAINNET);
    const r = run(['decode-tx', COINBASE]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(compact + '\n');
    const p = run(['decode-tx', '--pretty', '--network', 'testnet', '-'], COINBASE + '\n');
    expect(p.status).toBe(0);
    expect(p.stdout).toBe(prettyPrint(txToJson(decodeTransactionHex(COINBASE), TESTNET)) + '\n');
    expect(p.stdout).toContain('  "vin": [\n');
    expect(p.stdout).toContain('"tmBidiLV1ktpZhtnM4pvYYUWi1AS2tr2Ka9"');
  });

  it('ends with status 1 and no stack trace when its output cannot be written', () => {
    const block = vectorPath('blocks', 'mainnet', '347499.hex');
    // the reader goes away after one byte: quiet
    const cut = spawnSync(
      'sh',
      ['-c', `"${process.execPath}" --import tsx src/cli.ts decode-block --pretty @${block} | head -c 1 >/dev/null; echo "$?"`],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(cut.stderr).toBe('');
    const full = run(['decode-block', '--pretty', `@${block}`], undefined, '/dev/full');
    expect([full.status, full.stderr]).toEqual([1, 'Error: writing the output: ENOSPC: no space left on device, write\n']);
  });

  it('reports zcashd’s error text on stderr and exits non-zero', () => {
    const r = run(['decode-tx', 'zz']);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('TX decode failed: not a valid hex string: unspecified iostream_category error\n');
    const t = run(['decode-tx', COINBASE.slice(0, 100)]);
    expect(t.stderr).toBe('TX decode failed: CBaseDataStream::read(): end of data: unspecified iostream_category error\n');
    const n = run(['decode-tx', '--network', 'moonnet', COINBASE]);
    expect(n.status).not.toBe(0);
    expect(n.stderr).toContain('moonnet');
  });

  it('decode-block reads @file and prints the block-intrinsic members', () => {
    const file = vectorPath('blocks', 'mainnet', '1687107.hex');
    const r = run(['decode-block', `@${file}`]);
    expect(r.status).toBe(0);
    const block = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex'));
    expect(r.stdout).toBe(decodedBlockToJson(block, MAINNET) + '\n');
    expect(r.stdout.startsWith('{"hash":"' + block.hashHex + '","size":15957,')).toBe(true);
    expect(toHex(block.bytes)).toBe(toHex(readHexVector('blocks', 'mainnet', '1687107.hex')));
  });

  it.skipIf(!existsSync('/dev/zero'))('stops reading hex at 32 MiB, the largest JSON-RPC request, with a one-line error', () => {
    const why = 'is larger than 33554432 bytes, the most a JSON-RPC request to zcashd can carry\n';
    const file = run(['decode-tx', '@/dev/zero']);
    expect([file.status, file.stdout, file.stderr]).toEqual([1, '', `Error: /dev/zero ${why}`]);
    const stdin = spawnSync(process.execPath, ['--import', 'tsx', resolve(root, 'src/cli.ts'), 'decode-block', '-'], {
      cwd: root,
      encoding: 'utf8',
      stdio: [openSync('/dev/zero', 'r'), 'pipe', 'pipe'],
      timeout: 60_000,
    });
    expect([stdin.status, stdin.stdout, stdin.stderr]).toEqual([1, '', `Error: standard input ${why}`]);
  });

  // Python sets the flag Node cannot: a parent may hand a child a non-blocking pipe, whose read
  // fails with EAGAIN while the writer has nothing ready yet.
  const hasPython = spawnSync('python3', ['-c', 'import fcntl'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!hasPython)('reads standard input that is a non-blocking pipe, waiting for its slow writer', () => {
    const script = [
      'import fcntl, os, subprocess, sys, time',
      'r, w = os.pipe()',
      'fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_NONBLOCK)',
      "p = subprocess.Popen(sys.argv[1:4] + ['decode-tx', '-'], stdin=r, stdout=subprocess.PIPE, stderr=subprocess.PIPE)",
      'os.close(r)',
      'time.sleep(1)',
      'os.write(w, sys.argv[4][:50].encode()); time.sleep(0.3); os.write(w, sys.argv[4][50:].encode()); os.close(w)',
      'out, err = p.communicate(timeout=60)',
      'sys.stdout.write(out.decode()); sys.stderr.write(err.decode()); sys.exit(p.returncode)',
    ].join('\n');
    const r = spawnSync('python3', ['-c', script, process.execPath, '--import=tsx', resolve(root, 'src/cli.ts'), COINBASE], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(txToJson(decodeTransactionHex(COINBASE), MAINNET) + '\n');
  });

  it('rejects a corrupt block with a decode message', () => {
    const r = run(['decode-block', '0400000000']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toBe('Block decode failed: CBaseDataStream::read(): end of data: unspecified iostream_category error\n');
  });

  it('has usable --help', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', resolve(root, 'src/cli.ts'), '--help'], { cwd: root, encoding: 'utf8' });
    expect(out).toContain('decode-tx');
    expect(out).toContain('decode-block');
    expect(out).toContain('serve');
  });
});
