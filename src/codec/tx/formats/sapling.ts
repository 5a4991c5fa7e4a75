/**
 * v4 Sapling (ZIP-243 layout): Sapling spends/outputs, Groth16 JoinSplits, binding signature
 * after the JoinSplit data. zcashd's C++ also reads the never-activated ZFuture header
 * (0xFFFF / 0xFFFFFFFF) with this layout before its Rust re-parse rejects it.
 */
import { sha256d } from '../../../crypto/hash.js';
import { readSaplingV4Components, writeSaplingV4Components } from '../sapling.js';
import { readJoinSplitSection, writeJoinSplitSection } from '../sprout.js';
import { readTransparentPart, writeVin, writeVout } from '../transparent.js';
import type { TransactionData, TxFormatName } from '../types.js';
import { legacyAuthDigest, type TransparentLayout, type TxFormat } from './format.js';

const layout: TransparentLayout = { branchIdFirst: false, expiryHeight: true, emptyShieldedBytes: 11 };

function saplingLayout(name: TxFormatName): TxFormat {
  return {
    name,
    // zfuture shares v4's layout (and is refused when decoded, as zcashd refuses it).
    carries: { branchId: false, sapling: true, orchard: false, ironwood: false, joinSplits: true },
    transparentLayout: layout,
    read(r, header, t = readTransparentPart(r, layout)): TransactionData {
      const c = readSaplingV4Components(r);
      const js = readJoinSplitSection(r, 'groth16');
      const bindingSig = c ? r.bytes(64) : null;
      return {
        format: name,
        overwintered: true,
        version: header.version,
        versionGroupId: header.versionGroupId,
        consensusBranchId: null,
        lockTime: t.lockTime,
        expiryHeight: t.expiryHeight,
        vin: t.vin,
        vout: t.vout,
        // explicit fields, not `...js`: object spread is slow on this hot path
        joinSplits: js.joinSplits,
        joinSplitPubKey: js.joinSplitPubKey,
        joinSplitSig: js.joinSplitSig,
        sapling: c ? { spends: c.spends, outputs: c.outputs, valueBalance: c.valueBalance, sharedAnchor: null, bindingSig } : null,
        orchard: null,
      };
    },
    write(w, tx) {
      writeVin(w, tx.vin);
      writeVout(w, tx.vout);
      w.u32(tx.lockTime).u32(tx.expiryHeight);
      const s = tx.sapling;
      writeSaplingV4Components(w, { valueBalance: s?.valueBalance ?? 0, spends: s?.spends ?? [], outputs: s?.outputs ?? [] });
      writeJoinSplitSection(w, tx);
      if (s && s.bindingSig) w.bytes(s.bindingSig);
    },
    txid: (_tx, bytes) => sha256d(bytes),
    authDigest: legacyAuthDigest,
  };
}

export const v4Format: TxFormat = saplingLayout('v4');
export const zfutureFormat: TxFormat = saplingLayout('zfuture');
