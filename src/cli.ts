/**
 * The `zecrpc` command. `serve`, `import` and `cli` take zcashd-style options (`-datadir=…`,
 * `-testnet`, `-rpcport=…`, also read from zcash.conf); the decode commands use ordinary `--long`
 * options. Every command answers `-?`, `-h`, `-help` and `--help` with its usage (exit 0) and
 * `-version` with the version; anything it does not understand is an error (exit 1).
 */
import { Command, CommanderError } from 'commander';
import { ConfigError } from './config.js';
import { COMMANDS } from './cli/commands.js';
import { decodeCommands, normalizeDecodeArgs } from './cli/decode.js';
import { isHelpFlag, isVersionFlag } from './cli/options.js';
import { importUsage, serveUsage } from './cli/usage.js';
import { versionLine } from './cli/version.js';

function mainUsage(): string {
  return (
    `${versionLine('zecrpc')}\n\n` +
    'Usage:\n' +
    '  zecrpc serve [options]                   Serve zcashd JSON-RPC from the chain store\n' +
    '  zecrpc import [options] <source>         Import blocks (blk files, hex, or a running node)\n' +
    '  zecrpc cli [options] <command> [params]  Send a command to the server (same as zecrpc-cli)\n' +
    '  zecrpc verify [options]                  Check every record of the chain store, changing nothing\n' +
    '  zecrpc compare [options]                 Compare replies with a reference zcashd or zebrad\n' +
    "  zecrpc decode-tx [options] <hex>         Print zcashd's decoderawtransaction result\n" +
    '  zecrpc decode-block [options] <hex>      Print the block-intrinsic getblock members\n' +
    '  zecrpc help <command>                    Usage of a command (also zecrpc <command> -help)\n\n' +
    'Options:\n\n' +
    '  -?\n       This help message (also -h, -help, --help)\n\n' +
    '  -version\n       Print the version and exit\n'
  );
}

async function commandUsage(name: string): Promise<string> {
  switch (name) {
    case 'serve':
      return serveUsage();
    case 'import':
      return importUsage();
    case 'cli':
      return (await import('./cli/client.js')).clientUsage();
    case 'verify':
      return (await import('./cli/verify.js')).verifyUsage();
    case 'compare':
      return (await import('./cli/compare.js')).compareCommand().helpInformation();
    default: {
      const cmd = decodeCommands().find((c) => c.name() === name);
      return cmd ? cmd.helpInformation() : mainUsage();
    }
  }
}

function unknownCommand(name: string): never {
  throw new ConfigError(`Error: unknown command '${name}' (commands: ${COMMANDS.join(', ')}). See 'zecrpc -help'.`);
}

/** decode-tx / decode-block through commander, with its messages turned into ours. */
async function runDecode(argv: string[]): Promise<void> {
  const program = new Command('zecrpc').exitOverride().configureOutput({ writeErr: () => undefined });
  for (const c of decodeCommands()) program.addCommand(c.exitOverride().configureOutput({ writeErr: () => undefined }));
  try {
    await program.parseAsync([argv[0]!, ...normalizeDecodeArgs(argv.slice(1))], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      throw new ConfigError(`Error: zecrpc ${argv[0]}: ${e.message.replace(/^error: /, '')}. See 'zecrpc ${argv[0]} -help'.`);
    }
    throw e;
  }
}

async function main(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined) {
    process.stdout.write(mainUsage());
    process.stderr.write('Error: too few parameters\n');
    return 1;
  }
  if (isHelpFlag(sub)) {
    process.stdout.write(mainUsage());
    return 0;
  }
  if (isVersionFlag(sub)) {
    process.stdout.write(`${versionLine('zecrpc')}\n`);
    return 0;
  }
  if (sub === 'help') {
    if (rest.length > 1) throw new ConfigError("Error: zecrpc help takes at most one command. See 'zecrpc -help'.");
    if (rest[0] !== undefined && !(COMMANDS as readonly string[]).includes(rest[0])) unknownCommand(rest[0]);
    process.stdout.write(await commandUsage(rest[0] ?? ''));
    return 0;
  }
  if (sub === 'cli') {
    const { runClient } = await import('./cli/client.js');
    return runClient(rest);
  }
  if (!(COMMANDS as readonly string[]).includes(sub)) unknownCommand(sub);
  // Help and version come before any other check, as in zcashd (a bad option next to -help still gets help).
  if (sub !== 'import' && rest.some(isHelpFlag)) {
    process.stdout.write(await commandUsage(sub));
    return 0;
  }
  if (sub !== 'import' && rest.some(isVersionFlag)) {
    process.stdout.write(`${versionLine('zecrpc')}\n`);
    return 0;
  }
  if (sub === 'serve') {
    const { runServe } = await import('./cli/serve.js');
    await runServe(rest);
    return 0;
  }
  if (sub === 'import') {
    const { runImport } = await import('./cli/import.js');
    await runImport(rest);
    return 0;
  }
  if (sub === 'verify') {
    const { runVerify } = await import('./cli/verify.js');
    return runVerify(rest);
  }
  if (sub === 'compare') {
    const { runCompareCommand } = await import('./cli/compare.js');
    return runCompareCommand(rest);
  }
  await runDecode(argv);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    const message = e instanceof ConfigError ? e.message : `Error: ${e instanceof Error ? e.message : String(e)}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  },
);
