// What a `-compat=6.12.2` node refuses because zcashd v6.12.2 could not have accepted it, on the
// real blocks around NU6.3: its store refuses the NU6.2-era and NU6.3-era blocks (naming the
// branch id and pointing at -compat=current), decoderawtransaction gives v6.12.2's errors for a
// NU6.2-branch v5 transaction and for a v6 one, and -nuparams refuses the branch ids it does not
// know. Under the default profile the same bytes decode.
import { afterAll, describe, expect, it } from 'vitest';
import { MAINNET, TESTNET, type NetworkParams } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { CURRENT, networkUnderProfile, ZCASHD_6_12_2, type CompatProfile } from '../../src/compat/profiles.js';
import { loadNodeConfig } from '../../src/config.js';
import type { RpcContext } from '../../src/rpc/method.js';
import { createDecodeRawTransaction } from '../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { BlockRejectedError, UnknownParentError } from '../../src/store/errors.js';
import { openChainStore, type ChainStore } from '../../src/store/index.js';
import { tempDir } from '../support/store.js';
import { readHexVector } from '../support/vectors.js';

const blockBytes = (network: 'mainnet' | 'testnet', height: number) => readHexVector('nu6.3', 'blocks', network, `${height}.hex`);
const S = ': unspecified iostream_category error';

describe('a -compat=6.12.2 store', () => {
  const dirs: { remove: () => void }[] = [];
  const stores: ChainStore[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
    for (const d of dirs) d.remove();
  });
  async function storeFor(network: NetworkParams): Promise<ChainStore> {
    const dir = tempDir('compat-refusals');
    dirs.push(dir);
    const store = await openChainStore({ datadir: dir.path, network });
    stores.push(store);
    return store;
  }
  async function refusal(store: ChainStore, bytes: Uint8Array): Promise<BlockRejectedError> {
    const e = await store.addBlock(bytes).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(BlockRejectedError);
    return e as BlockRejectedError;
  }

  it('refuses the real NU6.2-era block, naming its branch id and -compat=current', async () => {
    const store = await storeFor(networkUnderProfile(MAINNET, ZCASHD_6_12_2));
    const bytes = blockBytes('mainnet', 3428141);
    const coinbase = decodeBlock(bytes, CURRENT_CHAIN_ACCEPTANCE).transactions[0]!;
    const e = await refusal(store, bytes);
    expect(e.message).toBe(
      'block 0000000000acbb4e293519d3025062019b696f87e263347f2b04b4bc567bda6b rejected: it does not decode ' +
        `(CTransaction::UpdateHash: Invalid transaction format${S} (at byte 1488)): transaction ${coinbase.txidHex} carries consensus branch id ` +
        "5437f330 (NU6.2), which this node's network upgrade schedule does not include (-compat=6.12.2 reproduces zcashd " +
        "v6.12.2, which knows no upgrade after NU6.1; -compat=current, the default, follows today's chain)",
    );
  });

  it('refuses the real first NU6.3 block by its v6 coinbase', async () => {
    const store = await storeFor(networkUnderProfile(TESTNET, ZCASHD_6_12_2));
    const bytes = blockBytes('testnet', 4134000);
    const coinbase = decodeBlock(bytes, CURRENT_CHAIN_ACCEPTANCE).transactions[0]!;
    const e = await refusal(store, bytes);
    expect(e.message).toContain(
      `(Unknown transaction format${S} (at byte 1488)): transaction ${coinbase.txidHex} is a v6 transaction with`,
    );
    expect(e.message).toContain('consensus branch id 37a5165b (NU6.3)');
    expect(e.message).toContain('-compat=current');
  });

  it('under the default profile the same blocks decode (and wait for their parent)', async () => {
    const store = await storeFor(networkUnderProfile(MAINNET, CURRENT));
    for (const height of [3428141, 3428143]) {
      await expect(store.addBlock(blockBytes('mainnet', height))).rejects.toBeInstanceOf(UnknownParentError);
    }
  });
});

describe('decoderawtransaction under -compat=6.12.2', () => {
  const method = createDecodeRawTransaction();
  const ctx = (profile: CompatProfile): RpcContext => ({ network: MAINNET, requestStop: () => undefined, profile });
  const txHex = (height: number, index: number) => {
    const tx = decodeBlock(blockBytes('mainnet', height), CURRENT_CHAIN_ACCEPTANCE).transactions[index]!;
    return { hex: toHex(tx.bytes), format: tx.data.format };
  };
  const error = (hex: string, profile: CompatProfile) =>
    Promise.resolve()
      .then(() => method.call([hex], ctx(profile)))
      .then(
        () => null,
        (e: unknown) => e,
      );

  it("gives v6.12.2's error for a NU6.2-branch v5 transaction and for a v6 transaction", async () => {
    const v5 = txHex(3428142, 1);
    const v6 = txHex(3428144, 2);
    expect([v5.format, v6.format]).toEqual(['v5', 'v6']);
    expect(await error(v5.hex, ZCASHD_6_12_2)).toMatchObject({
      code: -22,
      message: `TX decode failed: CTransaction::UpdateHash: Invalid transaction format${S}`,
    });
    expect(await error(v6.hex, ZCASHD_6_12_2)).toMatchObject({ code: -22, message: `TX decode failed: Unknown transaction format${S}` });
    expect(await error(v5.hex, CURRENT)).toBeNull();
    expect(await error(v6.hex, CURRENT)).not.toMatchObject({ code: -22 });
  });
});

describe('-nuparams under -compat=6.12.2', () => {
  const dir = tempDir('compat-nuparams');
  afterAll(() => dir.remove());
  const d = `-datadir=${dir.path}`;

  it("refuses NU6.2's and NU6.3's branch ids as zcashd v6.12.2 does, and schedules them by default", () => {
    const known = ['-nuparams=5ba81b19:1', '-nuparams=76b809bb:1', '-nuparams=2bb40e60:1', '-nuparams=f5b9230b:1'];
    const more = ['-nuparams=e9ff75a6:1', '-nuparams=c2d6d0b4:1', '-nuparams=c8e71055:1', '-nuparams=4dec4df0:1'];
    for (const id of ['5437f330', '37a5165b']) {
      expect(() => loadNodeConfig([d, '-regtest', '-compat=6.12.2', ...known, ...more, `-nuparams=${id}:5`])).toThrow(
        `Error: Invalid network upgrade (${id})`,
      );
    }
    const current = loadNodeConfig([d, '-regtest', ...known, ...more, '-nuparams=5437f330:5', '-nuparams=37a5165b:7']);
    expect(current.network.activationHeights['NU6.2']).toBe(5);
    expect(current.network.activationHeights['NU6.3']).toBe(7);
  });
});
