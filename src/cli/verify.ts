/**
 * `zecrpc verify [-datadir=DIR] [-testnet|-regtest]`: checks every record of the chain store
 * (store/scan.ts) and prints each damaged one, changing nothing. Exit status 0 when the store
 * is sound, 1 when anything is damaged. The server must be stopped first (LevelDB's lock).
 */
import { addressIndexOption, applyZcashdUmask, assertDatadirExists, ConfigError, loadNodeConfig, parseZcashArgs } from '../config.js';
import { checkOptions, formatOptions, VERIFY_OPTIONS } from './options.js';
import { versionLine } from './version.js';
import { scanStore, type ScanReport } from '../store/scan.js';
import { storedAddressIndexChoice } from '../store/address-index-record.js';
import { AddressIndexMismatchError } from '../store/errors.js';
import { storeDirectory } from '../store/layout.js';
import { isStoreLockedError, lockedStoreError, openStoreOrExplain } from './store-open.js';
import { repairStore } from '../sync/repair.js';
import { toHexReversed } from '../codec/hex.js';
import type { NodeConfig } from '../config.js';

export function formatScanReport(r: ScanReport): string {
  const lines = r.problems.map((p) => `DAMAGED ${p.where}: ${p.problem}`);
  if (r.readOnly) lines.push('read-only store: read through a private copy of its LevelDB logs, changing nothing');
  if (r.levelDbObsolete.length > 0) {
    const names = r.levelDbObsolete.slice(0, 5).join(', ') + (r.levelDbObsolete.length > 5 ? ', …' : '');
    lines.push(`not checked: ${r.levelDbObsolete.length} LevelDB files its MANIFEST no longer lists, deleted at its next open (${names})`);
  }
  lines.push(
    `checked ${r.recordsChecked} index records, ${r.blocksChecked} stored blocks, ${r.heightsChecked} best-chain entries, ` +
      `${r.levelDbChecksums} LevelDB checksums: ` +
      (r.problems.length === 0 ? 'no damage found' : `${r.problems.length} damaged`),
  );
  return lines.join('\n') + '\n';
}

export function verifyUsage(): string {
  return (
    `${versionLine('zecrpc')}\n\n` +
    'Usage:\n' +
    '  zecrpc verify [options]     Check every record of the chain store and list the damaged ones\n' +
    '  zecrpc verify -repair       Rebuild the store from its block files, then check it\n\n' +
    'Without -repair it changes nothing; exit status 1 when anything is damaged. Stop the server first.\n\n' +
    'Options:\n\n' +
    formatOptions(VERIFY_OPTIONS)
  );
}

/** Runs the command; resolves with the exit status. */
export async function runVerify(argv: readonly string[], out: (s: string) => void = (s) => void process.stdout.write(s)): Promise<number> {
  const { options, rest } = parseZcashArgs(argv);
  if (rest.length > 0) throw new ConfigError(`Error: zecrpc verify takes no arguments (got '${rest[0]}'). See 'zecrpc verify -help'.`);
  checkOptions(options, 'verify');
  assertDatadirExists(argv);
  const config = loadNodeConfig(argv);
  applyZcashdUmask(config);
  const addressIndex = addressIndexOption(config);
  if (config.getBoolArg('repair', false)) await runRepair(config, addressIndex, out);
  else await refuseOtherAddressIndex(config, addressIndex);
  const report = await scanStore(config.datadir, config.network, {
    onProgress: (n) => process.stderr.isTTY && process.stderr.write(`\r${n} records checked`),
  }).catch((e: unknown) => {
    throw isStoreLockedError(e) ? lockedStoreError(config) : e;
  });
  if (process.stderr.isTTY) process.stderr.write('\r');
  out(formatScanReport(report));
  return report.problems.length === 0 ? 0 : 1;
}

/**
 * The check reads the store as it is, but -addressindex is never accepted and ignored: a store is
 * verified with the value every other command opens it with (AddressIndexMismatchError otherwise).
 * A store whose record cannot be read is left to the scan, which names what is damaged.
 */
async function refuseOtherAddressIndex(config: NodeConfig, asked: boolean): Promise<void> {
  const dir = storeDirectory(config.datadir);
  const kept = await storedAddressIndexChoice(dir);
  if (kept !== null && kept !== asked) throw new AddressIndexMismatchError(dir, kept);
}

/** `-repair`: the store rebuilt from its block files (sync/repair.ts), before the check that follows. */
async function runRepair(config: NodeConfig, addressIndex: boolean, out: (s: string) => void): Promise<void> {
  const log = (line: string) => void process.stderr.write(`${line}\n`);
  const result = await repairStore({
    datadir: config.datadir,
    network: config.network,
    log,
    openStore: () => openStoreOrExplain(config, { log, groupCommit: true, writes: true }),
    addressIndex,
  });
  const tip = result.tip ? `tip ${result.tip.height} ${toHexReversed(result.tip.hash)}` : 'no block';
  const from = result.checkpointHeight === null ? '' : `its checkpoint at height ${result.checkpointHeight} and `;
  out(
    `repaired: the store was rebuilt from ${from}its block files (${result.blocksStored} blocks stored, ${tip}); ` +
      `the damaged store is kept in ${result.damagedCopy}: delete it once the repaired store serves\n`,
  );
}
