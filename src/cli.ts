/**
 * The `zecrpc` command. `serve` and `import` take zcashd-style options (`-datadir=…`,
 * `-testnet`, `-rpcport=…`, also read from zcash.conf), so their arguments are handed over
 * untouched; the decode commands use ordinary `--long` options.
 */
import { Command } from 'commander';
import { decodeCommands } from './cli/decode.js';

async function main(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'serve') {
    const { runServe } = await import('./cli/serve.js');
    return runServe(rest);
  }
  if (sub === 'import') {
    const { runImport } = await import('./cli/import.js');
    return runImport(rest);
  }
  const program = new Command('zecrpc')
    .description('zcashd v6.12.2-exact Zcash block server and decoder')
    .addHelpText(
      'after',
      '\nAlso:\n  serve [-datadir=DIR] [-conf=FILE] [-testnet|-regtest] [-rpcport=N] [-rpcuser=U -rpcpassword=P] [-upstream=URL]\n' +
        '  import [-datadir=DIR] [-testnet|-regtest] (--hex FILE|DIR… | --blocks-dir PATH | --rpc URL)\n',
    );
  for (const c of decodeCommands()) program.addCommand(c);
  await program.parseAsync(argv, { from: 'user' });
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`zecrpc: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
