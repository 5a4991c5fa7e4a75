/**
 * HTTP reply framing as zcashd's libevent 2.1.12 server writes it (rpc-http-json.md §1.3):
 * reason phrases, header order, the RFC 1123 Date, and libevent's HTML error pages.
 *
 * What Node's http module does not let us reproduce: it always adds a `Connection` header
 * (`keep-alive`, plus `Keep-Alive: timeout=N`, on persistent connections) after ours, where
 * libevent sends none. Status line, every header zcashd sends, their order, and bodies match.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REASONS: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Request Entity Too Large',
  417: 'Expectation Failed',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number) => (n < 10 ? '0' + n : String(n));

/** `Www, DD Mon YYYY HH:MM:SS GMT`, as libevent formats Date. */
export function httpDate(d = new Date()): string {
  return (
    `${DAYS[d.getUTCDay()]}, ${pad2(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ` +
    `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} GMT`
  );
}

/**
 * The Date header for now. It only changes once a second, and formatting it (a Date object and
 * eight getters) is measurable at tens of thousands of replies per second, so it is reused.
 */
let dateSecond = -1;
let dateText = '';
function currentHttpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateText = httpDate(new Date(now));
    dateSecond = second;
  }
  return dateText;
}

function wantsClose(req: IncomingMessage): boolean {
  return /(?:^|,)\s*close\s*(?:,|$)/i.test(req.headers.connection ?? '');
}

/**
 * Sends a reply with zcashd's header order: zcashd's own header (Content-Type for JSON, or
 * WWW-Authenticate), Date (HTTP/1.1), Content-Length, libevent's default Content-Type when
 * none was set, and `Connection: close` when the client asked for it.
 */
export function sendReply(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: string | Buffer | readonly Buffer[],
  own: 'json' | 'www-authenticate' | 'none',
): void {
  const chunks: readonly Buffer[] = typeof body === 'string' ? [Buffer.from(body, 'utf8')] : Buffer.isBuffer(body) ? [body] : body;
  let length = 0;
  for (const c of chunks) length += c.length;
  const headers: string[] = [];
  if (own === 'json') headers.push('Content-Type', 'application/json');
  if (own === 'www-authenticate') headers.push('WWW-Authenticate', 'Basic realm="jsonrpc"');
  if (req.httpVersion !== '1.0') headers.push('Date', currentHttpDate());
  headers.push('Content-Length', String(length));
  if (own !== 'json') headers.push('Content-Type', 'text/html; charset=ISO-8859-1');
  if (wantsClose(req)) headers.push('Connection', 'close');
  res.sendDate = false;
  res.writeHead(status, REASONS[status] ?? 'Unknown', headers);
  // Chunks go out as they are (one writev when corked), never copied into one buffer.
  res.cork();
  for (let i = 0; i < chunks.length - 1; i++) res.write(chunks[i]);
  res.end(chunks[chunks.length - 1]);
  res.uncork();
}

/** libevent's HTML error page (400, 413, 417, 501, 503), sent with `Connection: close`. */
export function sendErrorPage(req: IncomingMessage | null, res: ServerResponse, status: number): void {
  const reason = REASONS[status] ?? 'Error';
  const body = Buffer.from(
    `<HTML><HEAD>\n<TITLE>${status} ${reason}</TITLE>\n</HEAD><BODY>\n<H1>${reason}</H1>\n</BODY></HTML>\n`,
    'latin1',
  );
  res.sendDate = false;
  res.shouldKeepAlive = false;
  res.writeHead(status, reason, [
    'Content-Type',
    'text/html',
    'Connection',
    'close',
    'Date',
    httpDate(),
    'Content-Length',
    String(body.length),
  ]);
  res.end(body);
  void req;
}

/** The raw error page bytes for a socket-level error (no ServerResponse exists yet). */
export function rawErrorPage(status: number): string {
  const reason = REASONS[status] ?? 'Error';
  const body = `<HTML><HEAD>\n<TITLE>${status} ${reason}</TITLE>\n</HEAD><BODY>\n<H1>${reason}</H1>\n</BODY></HTML>\n`;
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/html\r\nConnection: close\r\nDate: ${httpDate()}\r\n` +
    `Content-Length: ${Buffer.byteLength(body, 'latin1')}\r\n\r\n${body}`
  );
}
