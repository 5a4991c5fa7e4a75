/**
 * Reads what zcashd's TxToJSON (src/rpc/rawtransaction.cpp, v6.12.2) adds from the spent index
 * when it keeps one (`fSpentIndex`, set by -insightexplorer): for each input that is not a
 * coinbase's, GetSpentIndex of its prevout gives the spent output's value and address; for
 * each output, GetSpentIndex of (txid, n) gives the input that spent it. Every transaction
 * object carries them: `getrawtransaction` verbose, `decoderawtransaction` and `getblock`
 * verbosity 2. The records go to the renderer packed (render/spent-fields.ts).
 *
 * zcashd asks its mempool first, so an output spent by a mempool transaction shows
 * `spentHeight` -1 there. zecrpc keeps no mempool, so it shows spends in the chain only.
 */
import type { Transaction } from '../../codec/tx/transaction.js';
import { isCoinbase } from '../../codec/tx/transparent.js';
import { packSpentRecords, type SpenderRecord, type SpentOutputRecord, type TxSpentRecords } from '../../render/spent-fields.js';
import type { AddressIndexReader } from '../../store/indexes/address-index-reader.js';

interface Outpoint {
  hash: Uint8Array;
  index: number;
}

export class SpentIndexLookup {
  constructor(private readonly index: AddressIndexReader) {}

  /** The records of `txs` in order, packed. */
  async records(txs: readonly Transaction[]): Promise<Uint8Array> {
    const outpoints: Outpoint[] = [];
    const spender: number[] = [];
    for (const tx of txs) {
      const { vin, vout } = tx.data;
      // A coinbase's input spends nothing, and zcashd does not look it up: its record stays empty.
      if (!isCoinbase(vin)) {
        for (const input of vin) {
          outpoints.push({ hash: input.prevout.hash, index: input.prevout.index });
          spender.push(0); // an input's record needs what it spent, not who spent that
        }
      }
      const txid = tx.txid;
      for (let n = 0; n < vout.length; n++) {
        outpoints.push({ hash: txid, index: n });
        spender.push(1);
      }
    }
    const found = await this.index.spentResolved(outpoints, Uint8Array.from(spender));
    let at = 0;
    const perTx: TxSpentRecords[] = txs.map((tx) => {
      const { vin, vout } = tx.data;
      const inputs: (SpentOutputRecord | null)[] = isCoinbase(vin) ? vin.map(() => null) : found.slice(at, (at += vin.length));
      // An output whose spending txid cannot be named (an inconsistent index) prints no members.
      const outputs = found.slice(at, (at += vout.length)).map((f): SpenderRecord | null => (f?.txid ? (f as SpenderRecord) : null));
      return { inputs, outputs };
    });
    return packSpentRecords(perTx);
  }
}
