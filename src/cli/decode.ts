/**
 * `zecrpc decode-tx` and `zecrpc decode-block`: zcashd's decoderawtransaction result, and the
 * block-intrinsic members of getblock verbosity 2, printed from bytes given as a hex argument,
 * `@file`, or `-` (stdin).
 */
import { statSync } from 'node:fs';
import { Command, Option } from 'commander';
import { readTextBounded } from '../bounded-read.js';
import { NETWORK_NAMES, networkParams, type NetworkName } from '../chain/network.js';
import { decodeBlockHex } from '../codec/block.js';
import { DecodeError } from '../codec/errors.js';
import { decodeTransactionHex } from '../codec/tx/transaction.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../codec/tx/acceptance.js';
import { decodedBlockToJson } from '../render/block.js';
import { prettyPrint } from '../json/pretty.js';
import { txToJson } from '../render/tx.js';
import { REQUEST_TEXT_LIMIT } from '../rpc/http/body.js';

/** The hex text an argument names: literal hex, `@path`, or `-` for stdin (surrounding whitespace trimmed for the last two). */
export function readHexArgument(arg: string): string {
  if (arg === '-') return readTextBounded(0, REQUEST_TEXT_LIMIT).trim();
  if (arg.startsWith('@')) return readTextBounded(arg.slice(1), REQUEST_TEXT_LIMIT).trim();
  return arg;
}

/**
 * For an argument that is not hex but names a file: the hint that a file is read with `@` (the
 * argument is hex text by default, as zcashd's RPC takes it).
 */
export function fileArgumentHint(arg: string, e: DecodeError): string {
  if (e.reason !== 'invalid-hex' || arg === '-' || arg.startsWith('@')) return '';
  let isFile = false;
  try {
    isFile = statSync(arg).isFile();
  } catch {
    isFile = false;
  }
  if (isFile) return `\n${arg} is a file: write @${arg} to read the hex in it (or - to read stdin)`;
  return /[/\\]|\.[a-z]+$/i.test(arg) ? `\nto read a file, write @ before its path (@${arg}), or - to read stdin` : '';
}

/**
 * decode-tx and decode-block take zcashd-style options as the other commands do: `-name=value`
 * and `-name` become commander's `--name=value` and `--name`, and `-testnet` / `-regtest` select
 * the network as they do for `serve`; `--long` options and the hex argument pass unchanged.
 */
export function normalizeDecodeArgs(argv: readonly string[]): string[] {
  return argv.map((a) => {
    const zcashdStyle = /^-([A-Za-z][A-Za-z0-9-]*)(=.*)?$/s.exec(a);
    if (!zcashdStyle) return a;
    const name = zcashdStyle[1]!.toLowerCase();
    if ((name === 'testnet' || name === 'regtest') && zcashdStyle[2] === undefined) return `--network=${name}`;
    return `--${name}${zcashdStyle[2] ?? ''}`;
  });
}

interface DecodeOptions {
  network: NetworkName;
  pretty?: boolean;
}

function emit(compact: string, pretty: boolean | undefined): void {
  // Output that cannot be written ends the command with status 1: quietly when the reader went
  // away (`| head`), as a C program's SIGPIPE ends it; with one line otherwise (a full disk).
  process.stdout.once('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') process.stderr.write(`Error: writing the output: ${e.message}\n`);
    process.exit(1);
  });
  process.stdout.write((pretty ? prettyPrint(compact) : compact) + '\n');
}

function fail(message: string): never {
  process.stderr.write(message + '\n');
  process.exit(1);
}

/** Prints the decoderawtransaction result for `hex`; returns the compact JSON (for tests). */
export function decodeTxToJsonText(hex: string, network: NetworkName): string {
  return txToJson(decodeTransactionHex(hex, CURRENT_CHAIN_ACCEPTANCE), networkParams(network));
}

export function decodeBlockToJsonText(hex: string, network: NetworkName): string {
  return decodedBlockToJson(decodeBlockHex(hex, CURRENT_CHAIN_ACCEPTANCE), networkParams(network));
}

function addCommonOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--network <name>', 'network whose address prefixes to use').choices([...NETWORK_NAMES]).default('mainnet'))
    .option('--pretty', "print in zcash-cli's indented form");
}

export function decodeCommands(): Command[] {
  const tx = addCommonOptions(
    new Command('decode-tx')
      .description("print zcashd's decoderawtransaction result for a raw transaction")
      .argument('<hex>', 'transaction hex, @file, or - for stdin'),
  ).action((arg: string, opts: DecodeOptions) => {
    let json: string;
    try {
      json = decodeTxToJsonText(readHexArgument(arg), opts.network);
    } catch (e) {
      if (e instanceof DecodeError) fail(e.rpcMessage + fileArgumentHint(arg, e));
      throw e;
    }
    emit(json, opts.pretty);
  });

  const block = addCommonOptions(
    new Command('decode-block')
      .description(
        'print the getblock verbosity-2 members that depend on the block bytes alone ' +
          '(height, confirmations, chainwork and the chain-state roots need the store: use `zecrpc serve`)',
      )
      .argument('<hex>', 'block hex, @file, or - for stdin'),
  ).action((arg: string, opts: DecodeOptions) => {
    let json: string;
    try {
      json = decodeBlockToJsonText(readHexArgument(arg), opts.network);
    } catch (e) {
      if (e instanceof DecodeError) fail(`Block decode failed: ${e.what}${fileArgumentHint(arg, e)}`);
      throw e;
    }
    emit(json, opts.pretty);
  });
  return [tx, block];
}
