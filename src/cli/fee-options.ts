/**
 * -minrelaytxfee and -paytxfee, read and checked as zcashd v6.12.2 reads them at start-up
 * (init.cpp, then CWallet::ParameterInteraction, which runs even with -disablewallet). zecrpc
 * relays and pays nothing, but getinfo prints both rates (`relayfee`, `paytxfee`), so a
 * zcash.conf shared with zcashd must give the same reply and refuse the same values.
 */
import { ConfigError, type NodeConfig } from '../config.js';
import { DEFAULT_FEE_RATES, type FeeRates } from '../rpc/methods/control/getinfo.js';

const COIN = 100_000_000n;
/** HIGH_TX_FEE_PER_KB (main.h): above it, -paytxfee draws a warning. */
const HIGH_TX_FEE_PER_KB = COIN / 100n;
/** (uint64_t)INT64_MAX / MAX_BLOCK_SIZE: CFeeRate(fee, size)'s cap. */
const FEE_RATE_CAP = (2n ** 63n - 1n) / 2_000_000n;

/** C's isspace in the "C" locale. */
const isSpace = (c: string | undefined): boolean => c !== undefined && ' \t\n\v\f\r'.includes(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/**
 * zcashd's ParseMoney (util/moneystr.cpp): optional leading spaces, up to 10 whole digits, a
 * point and up to 8 decimals, then only spaces; an empty value is 0. Null where it fails. The
 * value is read as C reads the string, up to a NUL.
 */
export function parseMoney(text: string): bigint | null {
  const s = text.includes('\0') ? text.slice(0, text.indexOf('\0')) : text;
  let p = 0;
  while (isSpace(s[p])) p++;
  let whole = '';
  let units = 0n;
  for (; p < s.length; p++) {
    if (s[p] === '.') {
      p++;
      for (let mult = COIN / 10n; isDigit(s[p]) && mult > 0n; mult /= 10n) units += mult * BigInt(s[p++]!);
      break;
    }
    if (isSpace(s[p])) break;
    if (!isDigit(s[p])) return null;
    whole += s[p];
  }
  for (; p < s.length; p++) if (!isSpace(s[p])) return null;
  if (whole.length > 10) return null; // zcashd's guard against 63-bit overflow
  return (whole === '' ? 0n : BigInt(whole)) * COIN + units;
}

/** CFeeRate(fee, 1000)'s rate: fee × 1000 in int64 (wrapping), ÷ 1000 unsigned, capped. */
function feeRatePerK(fee: bigint): bigint {
  const perK = BigInt.asUintN(64, BigInt.asIntN(64, fee * 1000n)) / 1000n;
  return perK < FEE_RATE_CAP ? perK : FEE_RATE_CAP;
}

/** CFeeRate::ToString. */
function feeRateText(perK: bigint): string {
  return `${perK / COIN}.${String(perK % COIN).padStart(8, '0')} ZEC per 1000 bytes`;
}

/**
 * The two rates, or zcashd's start-up error for a value it refuses. zcashd's warnings about them
 * are returned without "Warning: "; one given before an error leads the error's message, as
 * zcashd prints it first.
 */
export function feeRates(config: Pick<NodeConfig, 'getArg'>): FeeRates & { warnings: string[] } {
  const warnings: string[] = [];
  const refuse = (message: string): never => {
    throw new ConfigError([...warnings.map((w) => `Warning: ${w}`), `Error: ${message}`].join('\n'));
  };
  let { minRelayTxFee, payTxFee } = DEFAULT_FEE_RATES;
  const relayText = config.getArg('minrelaytxfee');
  if (relayText !== undefined)
    minRelayTxFee = parseMoney(relayText) ?? refuse(`Invalid amount for -minrelaytxfee=<amount>: '${relayText}'`);
  const payText = config.getArg('paytxfee');
  if (payText !== undefined) {
    const n = parseMoney(payText) ?? refuse(`Invalid amount for -paytxfee=<amount>: '${payText}'`);
    if (n > HIGH_TX_FEE_PER_KB) {
      warnings.push('-paytxfee is set to a very high fee rate! This is the fee rate you will pay if you send a transaction.');
    }
    payTxFee = feeRatePerK(n);
    if (payTxFee < minRelayTxFee) {
      refuse(
        `Invalid amount for -paytxfee=<amount>: '${payText}' (must be at least the minimum relay fee rate ${feeRateText(minRelayTxFee)})`,
      );
    }
  }
  return { payTxFee, minRelayTxFee, warnings };
}
