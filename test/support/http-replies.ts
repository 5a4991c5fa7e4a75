/**
 * A connection's bytes as whole HTTP/1.1 replies (bodies of a Content-Length), for tests that
 * send requests one after another on one kept-alive connection and act on each reply's head.
 */
export function wholeReplies(onReply: (head: string) => void): (chunk: Buffer) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString('latin1');
    for (;;) {
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = pending.slice(0, end + 2);
      const length = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(head)![1]);
      if (pending.length < end + 4 + length) return;
      pending = pending.slice(end + 4 + length);
      onReply(head);
    }
  };
}
