/**
 * One load-generating client process (started by client-pool.ts). A large reply costs its reader
 * about as much as its writer, so one client process would measure itself: the pool spreads the
 * connections over several of these.
 *
 * Messages from the parent (IPC):
 *   { kind: 'requests', set, requests: [{ bytes: base64 of a whole HTTP request, replyBytes }] }
 *   { kind: 'run', port, set, connections, amount }  → replies { kind: 'done', completed, failures }
 * Each connection keeps one request in flight, walks the set's requests from its own offset, and
 * counts a reply as completed only if it is a 200 whose size (head and body) is the one recorded
 * for that request; anything else is a failure.
 */
import { connect, type Socket } from 'node:net';

interface Request {
  bytes: Buffer;
  replyBytes: number;
}

interface RunMessage {
  kind: 'run';
  port: number;
  set: string;
  connections: number;
  amount: number;
}

interface RequestsMessage {
  kind: 'requests';
  set: string;
  requests: { bytes: string; replyBytes: number }[];
}

const sets = new Map<string, Request[]>();
const CRLFCRLF = Buffer.from('\r\n\r\n', 'latin1');

function run(m: RunMessage): void {
  const requests = sets.get(m.set)!;
  let started = 0;
  let completed = 0;
  let failures = 0;
  let open = m.connections;
  const finishOne = (): void => {
    if (--open === 0) process.send!({ kind: 'done', completed, failures });
  };
  for (let c = 0; c < m.connections; c++) {
    const sock: Socket = connect(m.port, '127.0.0.1');
    sock.setNoDelay(true);
    let next = c % requests.length;
    let current: Request | null = null;
    let received = 0;
    let needed = -1;
    let ok = false;
    let head: Buffer | null = null;
    const send = (): void => {
      if (started >= m.amount) {
        sock.end();
        return;
      }
      started++;
      current = requests[next]!;
      next = (next + 1) % requests.length;
      received = 0;
      needed = -1;
      head = null;
      sock.write(current.bytes);
    };
    sock.on('connect', send);
    sock.on('data', (d: Buffer) => {
      received += d.length;
      if (needed < 0) {
        head = head ? Buffer.concat([head, d]) : d;
        const sep = head.indexOf(CRLFCRLF);
        if (sep < 0) return;
        const len = /\r\ncontent-length: *(\d+)/i.exec(head.toString('latin1', 0, sep));
        needed = sep + 4 + (len ? Number(len[1]) : 0);
        ok = head.toString('latin1', 9, 12) === '200' && needed === current!.replyBytes;
        head = null;
      }
      if (received < needed) return;
      // One request in flight: anything past the reply's end is not a reply to it.
      if (ok && received === needed) completed++;
      else failures++;
      send();
    });
    sock.on('error', () => {
      failures++;
      sock.destroy();
    });
    sock.on('close', finishOne);
  }
}

process.on('message', (m: RunMessage | RequestsMessage) => {
  if (m.kind === 'requests') {
    sets.set(
      m.set,
      m.requests.map((r) => ({ bytes: Buffer.from(r.bytes, 'base64'), replyBytes: r.replyBytes })),
    );
    process.send!({ kind: 'ready' });
  } else run(m);
});
process.send!({ kind: 'ready' });
