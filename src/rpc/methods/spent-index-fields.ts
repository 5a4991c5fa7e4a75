/**
 * The members zcashd's TxToJSON (src/rpc/rawtransaction.cpp, v6.12.2) adds from the spent index
 * when it keeps one (`fSpentIndex`, set by -insightexplorer): for each input that is not a
 * coinbase's, GetSpentIndex of its prevout gives the spent output's value and address; for
 * each output, GetSpentIndex of (txid, n) gives the input that spent it. Every transaction
 * object carries them: `getrawtransaction` verbose, `decoderawtransaction` and `getblock`
 * verbosity 2.
 *
 * zcashd asks its mempool first, so an output spent by a mempool transaction shows
 * `spentHeight` -1 there. zecrpc keeps no mempool, so it shows spends in the chain only.
 */
import { encodeTransparentAddress } from '../../codec/script/address.js';
import type { Transaction } from '../../codec/tx/transaction.js';
import { isCoinbase } from '../../codec/tx/transparent.js';
import type { NetworkParams } from '../../chain/network.js';
import type { OutputSpender, SpentInput, TxSpentFields } from '../../render/tx.js';
import { SCRIPT_P2PKH, SCRIPT_P2SH, type SpentInfo } from '../../store/indexes/address-index.js';
import type { AddressIndexReader } from '../../store/indexes/address-index-reader.js';

interface Outpoint {
  hash: Uint8Array;
  index: number;
}

export class SpentIndexFields {
  constructor(
    private readonly index: AddressIndexReader,
    private readonly network: NetworkParams,
  ) {}

  /** One transaction's, read entry by entry (getrawtransaction, decoderawtransaction). */
  ofTransaction(tx: Transaction): TxSpentFields {
    const { inputs, outputs } = outpointsOf(tx);
    return this.fields(
      inputs.map((o) => this.index.spent(o.hash, o.index)),
      outputs.map((o) => this.index.spent(o.hash, o.index)),
    );
  }

  /** Each of a block's transactions', in block order, read in one batch (getblock verbosity 2). */
  async ofBlock(txs: readonly Transaction[]): Promise<TxSpentFields[]> {
    const perTx = txs.map(outpointsOf);
    const all: Outpoint[] = [];
    for (const { inputs, outputs } of perTx) all.push(...inputs, ...outputs);
    const found = await this.index.spentMany(all);
    let at = 0;
    return perTx.map(({ inputs, outputs }) => {
      const spentByInputs = found.slice(at, (at += inputs.length));
      return this.fields(spentByInputs, found.slice(at, (at += outputs.length)));
    });
  }

  private fields(byInputs: readonly (SpentInfo | null)[], byOutputs: readonly (SpentInfo | null)[]): TxSpentFields {
    return { inputs: byInputs.map((info) => info && this.spentInput(info)), outputs: byOutputs.map((info) => info && this.spender(info)) };
  }

  /** DestFromAddressHash: an address for the index's P2PKH and P2SH types only. */
  private spentInput(info: SpentInfo): SpentInput {
    const kind = info.type === SCRIPT_P2PKH ? 'p2pkh' : info.type === SCRIPT_P2SH ? 'p2sh' : null;
    return { value: info.value, address: kind && encodeTransparentAddress(kind, info.hash, this.network) };
  }

  /**
   * Null when the spending transaction cannot be named: its block was just disconnected and a
   * value of the schema naming it by position cannot be resolved (AddressIndexReader.spendingTxid).
   */
  private spender(info: SpentInfo): OutputSpender | null {
    const txid = this.index.spendingTxid(info);
    // Copied: the view shares memory with a stored value or txid list, all of which a render
    // thread would otherwise be sent along with it.
    return txid && { txid: new Uint8Array(txid), inputIndex: info.inputIndex, height: info.height };
  }
}

/**
 * The outpoints TxToJSON looks up: each input's prevout (none for a coinbase's input, which
 * spends nothing and which zcashd does not look up), each output.
 */
function outpointsOf(tx: Transaction): { inputs: Outpoint[]; outputs: Outpoint[] } {
  const { vin, vout } = tx.data;
  const inputs = isCoinbase(vin) ? [] : vin.map((input) => ({ hash: input.prevout.hash, index: input.prevout.index }));
  const txid = tx.txid;
  const outputs = vout.map((_, n) => ({ hash: txid, index: n }));
  return { inputs, outputs };
}
