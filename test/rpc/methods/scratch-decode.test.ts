// decoderawtransaction's hex decoded into reused memory (rawtransaction/scratch-decode.ts): the
// same transaction (rendered alike), the same lowercase text and the same errors as the codec's
// ordinary decode, for the vectors' transactions and for any change of their hex; and a reply,
// cached or lent or of its own, unchanged when the next request decodes another transaction
// into the same memory.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAINNET, TESTNET } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { DecodeError } from '../../../src/codec/errors.js';
import { toHex } from '../../../src/codec/hex.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../../src/codec/tx/acceptance.js';
import { decodeTransactionHexBytesKeepingText, type Transaction } from '../../../src/codec/tx/transaction.js';
import { txToJsonBytes } from '../../../src/render/tx.js';
import { createDecodeRawTransaction } from '../../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { decodeTransactionHexInScratch, SCRATCH_DECODE_MAX_BYTES } from '../../../src/rpc/methods/rawtransaction/scratch-decode.js';
import { readHexVector } from '../../support/vectors.js';

const blockTxs = (network: typeof MAINNET, ...path: string[]): { tx: Transaction; network: typeof MAINNET }[] =>
  decodeBlock(readHexVector(...path), CURRENT_CHAIN_ACCEPTANCE).transactions.map((tx) => ({ tx, network }));

/** v1 to v6: 106598 (447-input v1), testnet 141042 (v2 with a JoinSplit), a v4 Sapling block, the v6 block. */
const TXS = [
  ...blockTxs(MAINNET, 'zcashd-2019', '106598.hex'),
  ...blockTxs(TESTNET, 'blocks', 'testnet', '141042.hex'),
  ...blockTxs(MAINNET, 'nu6.3', 'blocks', 'mainnet', '3428145.hex'),
];

/** What a decode of `hex` gives: the transaction rendered and the text it vouches for, or its error; "none" for null. */
function outcome(decode: () => { tx: Transaction; hexText: Uint8Array | null } | null, network: typeof MAINNET): string {
  try {
    const d = decode();
    if (d === null) return 'none';
    return `${txToJsonBytes(d.tx, network).toString('latin1')} ${d.hexText === null ? 'no text' : Buffer.from(d.hexText).toString('latin1')}`;
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return `error ${e.rpcMessage}`;
  }
}

function expectSameAsCodec(hex: Uint8Array, network: typeof MAINNET): string {
  const ordinary = outcome(() => decodeTransactionHexBytesKeepingText(hex, CURRENT_CHAIN_ACCEPTANCE), network);
  const scratch = outcome(() => decodeTransactionHexInScratch(hex, CURRENT_CHAIN_ACCEPTANCE), network);
  // None only where the ordinary decode finds the text is not hex (or the transaction too large to reuse memory for).
  if (scratch === 'none')
    expect(hex.length > 2 * SCRATCH_DECODE_MAX_BYTES || ordinary.startsWith('error TX decode failed: not a valid hex')).toBe(true);
  else expect(scratch).toBe(ordinary);
  return scratch;
}

describe('a transaction decoded into reused memory', () => {
  it('is the codec’s, rendered alike, for every transaction of the vectors, lowercase, uppercase and with bytes after it', () => {
    expect(TXS.length).toBeGreaterThan(40);
    for (const { tx, network } of TXS) {
      const hex = toHex(tx.bytes);
      expect(expectSameAsCodec(Buffer.from(hex, 'latin1'), network)).toContain(`"hex":"${hex}"`);
      expect(expectSameAsCodec(Buffer.from(hex.toUpperCase(), 'latin1'), network)).toMatch(/ no text$/);
      expect(expectSameAsCodec(Buffer.from(`${hex}00ff`, 'latin1'), network)).toContain(`"hex":"${hex}"`);
    }
  });

  it('is the codec’s, or its error, for any change of a transaction’s hex', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: TXS.length - 1 }),
        fc.array(fc.record({ at: fc.nat(), bytes: fc.uint8Array({ maxLength: 4 }), cut: fc.integer({ min: 0, max: 3 }) }), {
          minLength: 1,
          maxLength: 3,
        }),
        (which, edits) => {
          const { tx, network } = TXS[which]!;
          let hex = Buffer.from(toHex(tx.bytes), 'latin1');
          for (const { at, bytes, cut } of edits) {
            const i = at % (hex.length + 1);
            // Hex digits most of the time, so that most changed texts still decode and parse further.
            const put = Buffer.from(bytes.map((b) => (b % 4 === 0 ? b : '0123456789abcdefABCDEF'.charCodeAt(b % 22))));
            hex = Buffer.concat([hex.subarray(0, i), put, hex.subarray(i + cut)]);
          }
          expectSameAsCodec(hex, network);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves every reply as it was when the next request decodes another transaction', async () => {
    const [a, b] = [
      TXS.find((t) => t.tx.bytes.length > 60_000)!,
      TXS.find((t) => t.tx.bytes.length > 30_000 && t.tx.bytes.length < 60_000)!,
    ];
    expect(a.network).toBe(b.network);
    const network = a.network;
    for (const cacheBytes of [0, 32 * 1024 * 1024]) {
      for (const lent of [false, true]) {
        const releases: (() => void)[] = [];
        const replyScope = lent ? { hold: (release: () => void) => void releases.push(release) } : undefined;
        const m = createDecodeRawTransaction({ cacheBytes });
        const ctx = { network, requestStop() {}, ...(replyScope ? { replyScope } : {}) };
        const first = (await m.call([toHex(a.tx.bytes)], ctx)) as Buffer;
        const want = txToJsonBytes(a.tx, network).toString('latin1');
        expect(first.toString('latin1')).toBe(want);
        const second = (await m.call([toHex(b.tx.bytes)], ctx)) as Buffer;
        expect(second.toString('latin1')).toBe(txToJsonBytes(b.tx, network).toString('latin1'));
        expect(first.toString('latin1'), `cacheBytes ${cacheBytes}, lent ${lent}`).toBe(want);
        for (const release of releases) release();
      }
    }
  });
});
