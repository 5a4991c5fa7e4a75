/**
 * zcashd v6.12.2's relay policy for a loose transaction (src/policy/policy.cpp IsStandardTx,
 * src/primitives/transaction.cpp GetDustThreshold): not consensus, but what its mempool refuses
 * as non-standard on mainnet and testnet (regtest accepts non-standard transactions), under
 * `-datacarrier`, `-datacarriersize` and `-permitbaremultisig` (RelayPolicy).
 */
import { isUnspendable } from '../codec/script/opcodes.js';
import { isPushOnlyFrom, solveScript } from '../codec/script/solver.js';
import { compactSizeLength } from '../codec/bytes.js';
import type { Transaction } from '../codec/tx/transaction.js';
import type { TxOut } from '../codec/tx/types.js';
import { isUpgradeActive, type NetworkParams } from './network.js';

/** MAX_OP_RETURN_RELAY: the largest OP_RETURN output script relayed (-datacarriersize). */
export const MAX_OP_RETURN_RELAY = 83;

/** The options zcashd's IsStandard reads (init.cpp; script/standard.cpp). */
export interface RelayPolicy {
  /** `-datacarrier` (default on): OP_RETURN outputs are standard at all. */
  dataCarrier: boolean;
  /** `-datacarriersize` (default 83): the largest standard OP_RETURN script. */
  maxDataCarrierBytes: number;
  /** `-permitbaremultisig` (default on): bare multisig outputs are standard. */
  permitBareMultisig: boolean;
}

export const DEFAULT_RELAY_POLICY: RelayPolicy = Object.freeze({
  dataCarrier: true,
  maxDataCarrierBytes: MAX_OP_RETURN_RELAY,
  permitBareMultisig: true,
});

/** The largest standard scriptSig: a 15-of-15 P2SH multisig spend, rounded up. */
export const MAX_STANDARD_SCRIPTSIG_SIZE = 1650;
/** ONE_THIRD_DUST_THRESHOLD_RATE, zatoshis per 1000 bytes. */
const ONE_THIRD_DUST_THRESHOLD_RATE = 100;

/** The transaction versions each epoch relays (CTransaction::*_CURRENT_VERSION). */
function currentVersions(network: NetworkParams, height: number): { min: number; max: number; reason: string } {
  if (isUpgradeActive(network, 'NU5', height)) return { min: 4, max: 5, reason: 'nu5-version' };
  if (isUpgradeActive(network, 'Sapling', height)) return { min: 4, max: 4, reason: 'sapling-version' };
  if (isUpgradeActive(network, 'Overwinter', height)) return { min: 3, max: 3, reason: 'overwinter-version' };
  return { min: 1, max: 2, reason: 'version' };
}

/** `CTxOut::GetDustThreshold`: 3 × the one-third rate's fee for the output and a 148-byte input to spend it. */
export function dustThreshold(out: TxOut): number {
  const script = out.scriptPubKey;
  if (isUnspendable(script)) return 0;
  const size = 8 + compactSizeLength(script.length) + script.length + 148;
  // CFeeRate::GetFee: rate × size / 1000, never 0 for a positive rate (it is at least 157 bytes here).
  return 3 * Math.floor((ONE_THIRD_DUST_THRESHOLD_RATE * size) / 1000);
}

/**
 * `IsStandardTx` at `height` (the next block's): the reason zcashd gives, or null. Its order:
 * the version, each input's scriptSig, each output's script and value, then OP_RETURN outputs.
 */
export function nonStandardReason(
  tx: Transaction,
  network: NetworkParams,
  height: number,
  policy: RelayPolicy = DEFAULT_RELAY_POLICY,
): string | null {
  const d = tx.data;
  const versions = currentVersions(network, height);
  if (d.version > versions.max || d.version < versions.min) return versions.reason;
  for (const input of d.vin) {
    const scriptSig = input.scriptSig;
    if (scriptSig.length > MAX_STANDARD_SCRIPTSIG_SIZE) return 'scriptsig-size';
    if (!isPushOnlyFrom(scriptSig, 0)) return 'scriptsig-not-pushonly';
  }
  let dataOutputs = 0;
  for (const out of d.vout) {
    const solved = solveScript(out.scriptPubKey);
    if (solved.type === 'nonstandard') return 'scriptpubkey';
    if (solved.type === 'multisig') {
      const m = solved.reqSigs!;
      const n = solved.destinations!.length;
      if (n < 1 || n > 3 || m < 1 || m > n) return 'scriptpubkey';
    }
    if (solved.type === 'nulldata') {
      if (!policy.dataCarrier || out.scriptPubKey.length > policy.maxDataCarrierBytes) return 'scriptpubkey';
      dataOutputs++;
    } else if (solved.type === 'multisig' && !policy.permitBareMultisig) {
      return 'bare-multisig';
    } else if (out.value < dustThreshold(out)) {
      return 'dust';
    }
  }
  return dataOutputs > 1 ? 'multi-op-return' : null;
}
