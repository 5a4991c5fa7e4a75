// The README and docs/ against the code: every command line shown parses with the real option
// parsers, and every relative link and repository path they name exists.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVE_OPTIONS } from '../src/cli/options.js';
import { parseConfFile } from '../src/config.js';
import { MAINNET } from '../src/chain/network.js';
import { blockWork } from '../src/chain/pow.js';
import { toHexReversed } from '../src/codec/hex.js';
import { sha256d } from '../src/crypto/hash.js';
import { openChainStore } from '../src/store/index.js';
import { checkpointFromJson, type CheckpointFile } from '../src/sync/checkpoint.js';
import { checkCommandLine, checkMarkdown, codeBlockCommands } from './support/doc-check.js';
import { mainnetChain, tempDir } from './support/store.js';

const repo = resolve(import.meta.dirname, '..');
const pages = ['README.md', 'ARCHITECTURE.md', 'CHANGELOG.md', ...readdirSync(join(repo, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

describe('documentation', () => {
  it.each(pages)('%s: commands parse, links and paths exist', (page) => {
    expect(checkMarkdown(page, readFileSync(join(repo, page), 'utf8'), repo)).toEqual([]);
  });

  it('finds the commands of the README and the operating guide', () => {
    const readme = codeBlockCommands(readFileSync(join(repo, 'README.md'), 'utf8'));
    expect(readme).toContain('$ npx zecrpc-cli getblockcount');
    expect(readme.some((l) => l.startsWith('npx zecrpc import --checkpoint checkpoint.json'))).toBe(true);
    // The serve synopsis is two lines in the README; the continuation is part of the command.
    expect(readme.some((l) => l.startsWith('zecrpc serve  [-datadir=DIR]') && l.includes('[-loglevel=L]'))).toBe(true);
    const operating = codeBlockCommands(readFileSync(join(repo, 'docs', 'operating.md'), 'utf8'));
    expect(operating).toContain('ExecStart=/usr/local/bin/zecrpc serve -datadir=/var/lib/zecrpc');
    expect(operating.filter((l) => l.startsWith('zecrpc compare')).length).toBe(3);
  });

  it('accepts real command lines of every command', () => {
    for (const line of [
      'zecrpc serve -datadir=/srv/z -rpcport=8232 -norpcssl -upstream=http://127.0.0.1:8232',
      'zecrpc serve --upstream http://127.0.0.1:8232 -debug=rpc',
      'zecrpc import -testnet --rpc http://127.0.0.1:18232 --rpc-cookie c --follow --progress log',
      'zecrpc import --hex a.hex b/ --durable --no-verify-equihash',
      'zecrpc verify -regtest',
      'zecrpc decode-tx --network testnet --pretty @tx.hex',
      'zecrpc compare --reference http://a/ --target-datadir d --heights 1..2 --exclude x y --progress none',
      'zecrpc help compare',
      'zecrpc-cli -rpcport=8232 getblock 00040fe8ec8471911baa1db1266ea15dd06b4a8a5c453883c000b031973dce08 2',
      'zecrpc cli -testnet getblockhash 5',
    ]) {
      expect(() => checkCommandLine(line), line).not.toThrow();
    }
  });

  it('fails on an option, command, method, choice or file that does not exist', () => {
    const synthetic = [
      '# Synthetic',
      '',
      'See [the guide](docs/no-such-page.md), [a heading](#no-such-heading) and `src/cli/no-such-file.ts`.',
      '',
      '```sh',
      'zecrpc serve -rpcprot=8232',
      'zecrpc serve -rpcconnect=127.0.0.1',
      'npx zecrpc import --hexx blocks/',
      'zecrpc import --progress none --hex a.hex',
      'zecrpc decode-tx --pretty',
      'zecrpc frobnicate',
      'zecrpc-cli getblokcount',
      'zecrpc-cli getblockhash',
      'zecrpc compare --referense http://a/',
      '```',
    ].join('\n');
    const problems = checkMarkdown('SYNTHETIC.md', synthetic, repo).map((p) => `${p.what}: ${p.problem}`);
    expect(problems).toEqual([
      "zecrpc serve -rpcprot=8232: Error: zecrpc serve does not take -rpcprot (unknown option). See 'zecrpc serve -help'.",
      "zecrpc serve -rpcconnect=127.0.0.1: Error: zecrpc serve does not take -rpcconnect (it is an option of zecrpc-cli). See 'zecrpc serve -help'.",
      'npx zecrpc import --hexx blocks/: import has no option --hexx',
      "zecrpc import --progress none --hex a.hex: import --progress takes auto, bar, log, silent, not 'none'",
      'zecrpc decode-tx --pretty: decode-tx takes 1 argument(s), the line gives 0',
      "zecrpc frobnicate: zecrpc has no command 'frobnicate'",
      'zecrpc-cli getblokcount: zecrpc-cli getblokcount: Unknown RPC method, getblokcount',
      'zecrpc-cli getblockhash: zecrpc-cli getblockhash: Not enough parameters for method `getblockhash`. Needed exactly 1, but received 0',
      'zecrpc compare --referense http://a/: compare has no option --referense',
      'docs/no-such-page.md: linked file does not exist',
      '#no-such-heading: no heading #no-such-heading',
      'src/cli/no-such-file.ts: path does not exist',
    ]);
  });

  it("the README's checkpoint sample, its elided headers filled from the real chain, starts a store at mainnet 10", async () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const sample = JSON.parse(/```json\n([\s\S]*?)```/.exec(readme)![1]!) as CheckpointFile;
    expect(sample.headers.every((h) => h.includes('…'))).toBe(true);
    // An Equihash (200,9) header is 1,487 bytes: the start of each block.
    const headers = mainnetChain()
      .slice(0, sample.height + 1)
      .map((block) => block.subarray(0, 1487));
    // From genesis, the chain work is the sum of each header's work (nBits at byte 104).
    const work = headers.reduce((sum, h) => sum + blockWork(Buffer.from(h).readUInt32LE(104)), 0n);
    expect(BigInt(`0x${sample.chainWork}`)).toBe(work);
    const dir = tempDir('docs-checkpoint');
    const store = await openChainStore({ datadir: dir.path, network: MAINNET });
    try {
      await store.startFromCheckpoint(checkpointFromJson({ ...sample, headers: headers.map((h) => Buffer.from(h).toString('hex')) }));
      const tip = (await store.tip())!;
      expect([tip.height, toHexReversed(tip.hash)]).toEqual([10, toHexReversed(sha256d(headers[10]!))]);
    } finally {
      await store.close();
      dir.remove();
    }
  });

  it("the operating guide's sample zcash.conf parses, commented-out lines included, and names only serve's options", () => {
    const guide = readFileSync(join(repo, 'docs', 'operating.md'), 'utf8');
    const sample = /```ini\n(#[^\n]*\n[\s\S]*?)```/.exec(guide)![1]!;
    const uncommented = sample.replace(/^#(?=[a-z])/gm, '');
    const keys = [...parseConfFile(uncommented, 'zcash.conf').keys()];
    expect(keys.length).toBeGreaterThan(10);
    const serve = new Set(SERVE_OPTIONS.map((o) => o.name));
    expect(keys.filter((k) => !serve.has(k))).toEqual([]);
    expect(parseConfFile(sample, 'zcash.conf').get('rpcport')).toEqual(['8232']);
  });
});
