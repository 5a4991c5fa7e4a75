/**
 * Pull-based reading from a socket, with the socket paused whenever more than a little is
 * buffered: a client can never make the server hold more of its input than it asked for, and
 * bodies can be read (or skipped) at the pace the server decides, e.g. after a memory
 * reservation was granted.
 */
import type { Socket } from 'node:net';

/** Input kept before the socket is paused. */
const HIGH_WATER = 64 * 1024;

export class SocketInput {
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;
  private wake: (() => void) | null = null;

  constructor(private readonly socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.chunks.push(d);
      this.buffered += d.length;
      if (this.buffered >= HIGH_WATER) socket.pause();
      this.notify();
    });
    const end = () => {
      this.ended = true;
      this.notify();
    };
    socket.on('end', end);
    socket.on('close', end);
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** True when received bytes are waiting to be read. */
  get hasBuffered(): boolean {
    return this.buffered > 0;
  }

  /** The next received bytes, or null once the peer has finished sending (or the socket closed). */
  async next(): Promise<Buffer | null> {
    while (this.chunks.length === 0) {
      if (this.ended) return null;
      await new Promise<void>((r) => (this.wake = r));
    }
    const c = this.chunks.shift()!;
    this.buffered -= c.length;
    if (this.buffered < HIGH_WATER && this.socket.isPaused()) this.socket.resume();
    return c;
  }

  /** Puts back bytes read too far (the start of the next request). */
  unshift(b: Buffer): void {
    if (b.length === 0) return;
    this.chunks.unshift(b);
    this.buffered += b.length;
  }
}
