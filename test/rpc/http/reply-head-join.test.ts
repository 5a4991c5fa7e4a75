// writeReply (reply.ts) writes a short first chunk (the envelope's `{"result":`) as Latin-1 text,
// which Node joins to the response's head: the head's chunk carries it, one chunk fewer in the
// gathered write. Any bytes go through unchanged, a UTF-8 sequence cut short included.
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { FastifyReply } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { writeReply, type SimpleReply } from '../../../src/rpc/http/reply.js';

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** The bytes a client receives for `r` written by writeReply, and the chunks of each of the server's gathered writes. */
async function written(r: SimpleReply): Promise<{ reply: Buffer; writes: string[][] }> {
  const writes: string[][] = [];
  server = createServer((_req, res) => {
    const socket = res.socket!;
    const writev = socket._writev!.bind(socket);
    socket._writev = (chunks, cb) => {
      writes.push(chunks.map((c) => (typeof c.chunk === 'string' ? c.chunk : Buffer.from(c.chunk).toString('latin1'))));
      writev(chunks, cb);
    };
    writeReply({ raw: res, hijack: () => undefined } as unknown as FastifyReply, r);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server!.address() as { port: number }).port;
  const reply = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const client: Socket = connect(port, '127.0.0.1', () => client.write('POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    client.on('data', (c: Buffer) => chunks.push(c));
    client.on('error', reject);
    client.on('close', () => resolve(Buffer.concat(chunks)));
  });
  return { reply, writes };
}

const bodyOf = (reply: Buffer): Buffer => reply.subarray(reply.indexOf('\r\n\r\n') + 4);

describe('a reply of chunks', () => {
  it("sends a short first chunk in the head's chunk, byte for byte", async () => {
    // Ending inside a UTF-8 sequence, as a text chunk cut at its size may: decoded as UTF-8, it would change.
    const first = Buffer.concat([Buffer.from('[{"id":"é€😀","result":', 'utf8'), Buffer.from([0xe2, 0x82])]);
    const rest = [Buffer.alloc(70_000, 0x61), Buffer.from('}]\n', 'latin1')];
    const { reply, writes } = await written({ status: 200, body: [first, ...rest], own: 'json' });
    expect(bodyOf(reply).equals(Buffer.concat([first, ...rest]))).toBe(true);
    expect(reply.toString('latin1')).toContain(`\r\ncontent-length: ${first.length + 70_003}\r\n`);
    expect(writes).toHaveLength(1);
    const head = writes[0]![0]!;
    expect(head.startsWith('HTTP/1.1 200 OK\r\n') && head.endsWith(`\r\n\r\n${first.toString('latin1')}`)).toBe(true);
    // The head with the first chunk, the other chunks, and the end's empty text.
    expect(writes[0]).toHaveLength(4);
  });

  it('sends a longer first chunk, or a reply of one chunk, as a chunk of its own', async () => {
    const long = Buffer.alloc(65, 0x62);
    for (const body of [[long, Buffer.from('c')], [Buffer.from('d')]]) {
      const { reply, writes } = await written({ status: 200, body, own: 'json' });
      expect(bodyOf(reply).equals(Buffer.concat(body))).toBe(true);
      expect(writes[0]![0]!.endsWith('\r\n\r\n')).toBe(true);
    }
  });
});
