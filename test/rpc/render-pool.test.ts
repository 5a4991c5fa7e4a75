// The render pool gives exactly the bytes the inline renderer gives (the library path the
// getblock tests check against zcashd's vectors), passes verification failures back as
// BlockReadError, and ends idle threads.
import { afterAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { BlockReadError } from '../../src/store/verify.js';
import { inlineBlockRenderer, type BlockRenderRequest } from '../../src/rpc/workers/block-renderer.js';
import { RenderPool } from '../../src/rpc/workers/render-pool.js';
import { largeBlocks, LARGE_BLOCK_HEIGHT } from '../stress/fixtures.js';

const [block] = largeBlocks(1, 300_000);
const hash = decodeBlock(block!).hash;
const context = {
  height: LARGE_BLOCK_HEIGHT,
  confirmations: 3,
  chainWork: 123n,
  previousBlockHash: new Uint8Array(32).fill(7),
  nextBlockHash: null,
};
const pool = new RenderPool({ threads: 2, inlineMaxBytes: 1000, idleMs: 300 });
afterAll(() => pool.close());

const asText = (r: string | Buffer) => (typeof r === 'string' ? r : r.toString('utf8'));

describe('render pool', () => {
  it('renders every verbosity exactly as the inline renderer, in worker threads', async () => {
    for (const verbosity of [0, 1, 2] as const) {
      const req: BlockRenderRequest = { hash, bytes: block!, verbosity, context: verbosity ? context : null, network: MAINNET };
      const [threaded, inline] = await Promise.all([pool.render(req), inlineBlockRenderer.render(req)]);
      expect(asText(threaded)).toBe(asText(inline));
    }
    expect(pool.size).toBeGreaterThan(0);
  });

  it('reports a block whose transactions do not match its merkle root', async () => {
    const bad = new Uint8Array(block!);
    bad[bad.length - 5]! ^= 0x01; // inside the last transaction
    const req: BlockRenderRequest = { hash, bytes: bad, verbosity: 0, context: null, network: MAINNET };
    const failure = await pool.render(req).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BlockReadError);
    expect((failure as BlockReadError).reason).toMatch(/merkle root|does not decode/);
  });

  it('ends threads that stay idle', async () => {
    await pool.render({ hash, bytes: block!, verbosity: 0, context: null, network: MAINNET });
    for (let i = 0; i < 100 && pool.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(pool.size).toBe(0);
  });
});
