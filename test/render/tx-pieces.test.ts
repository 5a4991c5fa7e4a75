// Byte output writes a decoded input, and a P2PKH or P2SH output, from fixed fragments around
// its variable parts, reading its script in place; text output writes the same members one by
// one. Over every transaction of real blocks (hundreds of inputs, 1,500 outputs, coinbases,
// multisig and non-standard scripts, Sprout, Sapling, v5 and v6), the two agree byte for byte,
// plain, as getrawtransaction's verbose form, and with spent-index members on some inputs and
// outputs (which byte output then writes member by member).
import bs58check from 'bs58check';
import { describe, expect, it } from 'vitest';
import { MAINNET, TESTNET, type NetworkParams } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE, type TxAcceptance } from '../../src/codec/tx/acceptance.js';
import type { Transaction } from '../../src/codec/tx/transaction.js';
import { WireTxIn, WireTxOut } from '../../src/codec/tx/transparent.js';
import { JsonWriter } from '../../src/json/writer.js';
import { packSpentRecords, type TxSpentRecords } from '../../src/render/spent-fields.js';
import { txToJson, txToJsonBytes, writeTxJson, type TxJsonExtras } from '../../src/render/tx.js';
import { readHexVector } from '../support/vectors.js';
import { currentChainTransactions, realTransactions } from '../fuzz/corpus.js';

const BLOCKS: { name: string; file: string[]; network: NetworkParams; acceptance?: TxAcceptance }[] = [
  { name: 'testnet 141042', file: ['blocks', 'testnet', '141042.hex'], network: TESTNET },
  { name: 'mainnet 106598', file: ['zcashd-2019', '106598.hex'], network: MAINNET },
  { name: 'mainnet 171059', file: ['zcashd-2019', '171059.hex'], network: MAINNET },
  { name: 'mainnet 419201', file: ['blocks', 'mainnet', '419201.hex'], network: MAINNET },
  { name: 'mainnet 1687106', file: ['blocks', 'mainnet', '1687106.hex'], network: MAINNET },
  { name: 'mainnet 3428145', file: ['nu6.3', 'blocks', 'mainnet', '3428145.hex'], network: MAINNET, acceptance: CURRENT_CHAIN_ACCEPTANCE },
];

/** Text output's rendering: every member written one by one. */
function asText(tx: Transaction, network: NetworkParams, extras: TxJsonExtras): string {
  const w = new JsonWriter();
  writeTxJson(w, tx, network, extras);
  return w.toString();
}

/** Spent-index records on every other input and every third output. */
function someSpentRecords(tx: Transaction): Uint8Array {
  const hash = Uint8Array.from({ length: 20 }, (_, i) => 17 * i + 3);
  const txid = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);
  const records: TxSpentRecords = {
    inputs: tx.data.vin.map((_, i) => (i % 2 === 0 ? { value: 1_000 * i + 7, type: i % 4 === 0 ? 1 : 2, hash } : null)),
    outputs: tx.data.vout.map((_, i) => (i % 3 === 1 ? { txid, inputIndex: i, height: 100_000 + i } : null)),
  };
  return packSpentRecords([records]);
}

describe('byte output of inputs and outputs from fragments', () => {
  for (const b of BLOCKS) {
    it(`equals text output for every transaction of ${b.name}`, () => {
      const block = decodeBlock(readHexVector(...b.file), b.acceptance);
      let wireInputs = 0;
      let wireOutputs = 0;
      for (const tx of block.transactions) {
        wireInputs += tx.data.vin.filter((i) => i instanceof WireTxIn).length;
        wireOutputs += tx.data.vout.filter((o) => o instanceof WireTxOut).length;
        expect(txToJsonBytes(tx, b.network).toString('latin1')).toBe(txToJson(tx, b.network));
        const verbose: TxJsonExtras = { leadingHex: true, block: { hash: block.hash, height: 5, confirmations: 2, time: 1_600_000_000 } };
        expect(txToJsonBytes(tx, b.network, verbose).toString('latin1')).toBe(asText(tx, b.network, verbose));
        const spent: TxJsonExtras = { spent: { bytes: someSpentRecords(tx), at: 0 } };
        expect(txToJsonBytes(tx, b.network, spent).toString('latin1')).toBe(asText(tx, b.network, spent));
      }
      // The blocks' transactions are read in place, so the fragments' paths are the ones compared.
      expect(wireInputs + wireOutputs).toBeGreaterThan(0);
    });
  }

  it('equals text output for every v5 and v6 transaction of the vectors, whose Orchard actions byte output writes from fragments', () => {
    const actions = new Map<number, number>();
    for (const { tx } of [...realTransactions(), ...currentChainTransactions()]) {
      const v = tx.data.version;
      if (v < 5) continue;
      actions.set(v, (actions.get(v) ?? 0) + (tx.data.orchard?.actions.length ?? 0) + (tx.data.ironwood?.actions.length ?? 0));
      expect(txToJsonBytes(tx, MAINNET).toString('latin1')).toBe(txToJson(tx, MAINNET));
      const verbose: TxJsonExtras = { leadingHex: true, inActiveChain: true };
      expect(txToJsonBytes(tx, MAINNET, verbose).toString('latin1')).toBe(asText(tx, MAINNET, verbose));
    }
    expect(actions.get(5)).toBeGreaterThan(0);
    expect(actions.get(6)).toBeGreaterThan(10);
  });

  it("writes each output's Base58Check address of its script's hash, and each input's script", () => {
    const tx = decodeBlock(readHexVector('zcashd-2019', '171059.hex')).transactions[3]!;
    const json = JSON.parse(txToJsonBytes(tx, MAINNET).toString('latin1')) as {
      vin: { txid: string; scriptSig: { asm: string; hex: string } }[];
      vout: { n: number; scriptPubKey: { hex: string; type: string; addresses: string[] } }[];
    };
    expect(json.vout).toHaveLength(1_500);
    json.vout.forEach((o, i) => {
      expect([o.n, o.scriptPubKey.type]).toEqual([i, 'pubkeyhash']);
      const hash = Buffer.from(o.scriptPubKey.hex.slice(6, 46), 'hex');
      expect(o.scriptPubKey.addresses).toEqual([bs58check.encode(Buffer.concat([MAINNET.p2pkhPrefix, hash]))]);
    });
    expect(json.vin.every((i) => / /.test(i.scriptSig.asm) && i.scriptSig.hex.length > 0)).toBe(true);
  });
  // A script one byte away from a P2PKH or P2SH shape is not that shape: byte output must fall back
  // to solving it as text output does. Every such output of two real blocks gets one of its shape's
  // fixed bytes changed, the byte changed turning over from output to output.
  for (const b of [BLOCKS[2]!, { name: 'mainnet 419201', file: ['blocks', 'mainnet', '419201.hex'], network: MAINNET }]) {
    it(`equals text output for ${b.name} with every standard output script one byte off its shape`, () => {
      const raw = Buffer.from(readHexVector(...b.file));
      const mutated = { p2pkh: 0, p2sh: 0 };
      for (let i = 0; i + 26 < raw.length; i++) {
        // A 25-byte script: OP_DUP OP_HASH160 push(20) … OP_EQUALVERIFY OP_CHECKSIG.
        if (
          raw[i] === 0x19 &&
          raw[i + 1] === 0x76 &&
          raw[i + 2] === 0xa9 &&
          raw[i + 3] === 0x14 &&
          raw[i + 24] === 0x88 &&
          raw[i + 25] === 0xac
        ) {
          raw[i + [1, 2, 3, 24, 25][mutated.p2pkh++ % 5]!]! ^= 0x01;
          i += 25;
        } else if (raw[i] === 0x17 && raw[i + 1] === 0xa9 && raw[i + 2] === 0x14 && raw[i + 23] === 0x87) {
          // A 23-byte script: OP_HASH160 push(20) … OP_EQUAL.
          raw[i + [1, 2, 23][mutated.p2sh++ % 3]!]! ^= 0x01;
          i += 23;
        }
      }
      expect(mutated.p2pkh).toBeGreaterThan(400);
      expect(mutated.p2sh).toBeGreaterThan(0);
      const block = decodeBlock(raw);
      const types = new Set<string>();
      for (const tx of block.transactions) {
        const bytes = txToJsonBytes(tx, b.network).toString('latin1');
        expect(bytes).toBe(txToJson(tx, b.network));
        for (const o of (JSON.parse(bytes) as { vout: { scriptPubKey: { type: string } }[] }).vout) types.add(o.scriptPubKey.type);
      }
      // The changed scripts were read as such, not as their shapes.
      expect(types.has('nonstandard')).toBe(true);
    });
  }
});
