/**
 * Usage texts of `zecrpc serve` and `zecrpc import`, kept apart from the commands so that
 * `-help` answers without loading the server or the store.
 */
import { formatOptions, IMPORT_OPTIONS, SERVE_OPTIONS } from './options.js';
import { versionLine } from './version.js';

export function serveUsage(): string {
  return (
    `${versionLine('zecrpc')}\n\n` +
    'Usage:\n' +
    '  zecrpc serve [options]                  Serve zcashd JSON-RPC from the chain store\n\n' +
    'Options (also read from zcash.conf in the data directory, without the dash; the command line wins):\n\n' +
    formatOptions(SERVE_OPTIONS)
  );
}

const SOURCE_HELP = `Source (exactly one):

  --hex <path…>
       Files or directories of raw block hex (one block per file or per line),
       in any order

  --blocks-dir <path>
       zcashd's blocks directory (blk?????.dat), or its data directory

  --rpc <url>
       A running zcashd or zebrad JSON-RPC URL, with --rpc-user <user>
       --rpc-password <pw> or --rpc-cookie <file>; --follow keeps following its
       tip until interrupted

Other:

  --checkpoint <file|url>
       Start an empty store at a checkpoint instead of genesis: a JSON checkpoint
       file (its format: README, Starting at a checkpoint), or a node URL asked
       with --checkpoint-height <height>

  --progress <auto|bar|log|silent>
       Progress display (default: auto: a bar on a terminal, log lines otherwise)

  --durable
       fsync every block (power-loss safe, slower)

  --no-verify-equihash
       Skip Equihash solution checks, for a source you trust (your own zcashd's
       blk files); every other check still runs
`;

export function importUsage(): string {
  return (
    `${versionLine('zecrpc')}\n\n` +
    'Usage:\n' +
    '  zecrpc import [options] --hex <file|dir>…     Import raw block hex\n' +
    "  zecrpc import [options] --blocks-dir <path>   Import zcashd's blk files\n" +
    '  zecrpc import [options] --rpc <url>           Import from a running node\n\n' +
    'The store admits one process: run imports while `zecrpc serve` is stopped.\n\n' +
    'Options:\n\n' +
    formatOptions(IMPORT_OPTIONS) +
    '\n' +
    SOURCE_HELP
  );
}
