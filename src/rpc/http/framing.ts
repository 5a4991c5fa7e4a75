/**
 * HTTP reply framing as zcashd's libevent 2.1.12 server writes it (rpc-http-json.md §1.3):
 * the status line echoing the request's HTTP version, reason phrases, header order, the
 * RFC 1123 Date, keep-alive rules and libevent's HTML error pages. The server writes these
 * bytes to the socket itself, so nothing is added that libevent would not send.
 */

export const REASONS: Record<number, string> = {
  100: 'Continue',
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

/** What the reply framing needs to know about the request it answers. */
export interface ReplyFraming {
  /** 0 for HTTP/1.0 requests, 1 for HTTP/1.1. */
  minor: 0 | 1;
  /** The request carried `Connection: close`. */
  wantsClose: boolean;
  /** An HTTP/1.0 request carried `Connection: keep-alive`. */
  wantsKeepAlive: boolean;
  /** HEAD request (libevent leaves out the length and type headers, yet sends the body). */
  head: boolean;
}

/** Whether libevent keeps the connection open after replying to this request. */
export function keepsAlive(f: ReplyFraming): boolean {
  if (f.wantsClose) return false;
  return f.minor === 1 || f.wantsKeepAlive;
}

export type OwnHeader = 'json' | 'www-authenticate' | 'none';

/**
 * Status line and headers of a normal reply, in libevent's order (§1.3.2): zcashd's own header
 * (Content-Type for JSON, or WWW-Authenticate), Date (HTTP/1.1), `Connection: keep-alive`
 * (HTTP/1.0 keep-alive), Content-Length, libevent's default Content-Type when none was set,
 * and `Connection: close` when the client asked for it.
 */
export function replyHead(status: number, own: OwnHeader, length: number, f: ReplyFraming): string {
  let s = `HTTP/1.${f.minor} ${status} ${REASONS[status] ?? 'Unknown'}\r\n`;
  if (own === 'json') s += 'Content-Type: application/json\r\n';
  if (own === 'www-authenticate') s += 'WWW-Authenticate: Basic realm="jsonrpc"\r\n';
  if (f.minor === 1) s += `Date: ${currentHttpDate()}\r\n`;
  const keepAlive10 = f.minor === 0 && f.wantsKeepAlive && !f.wantsClose;
  if (keepAlive10) s += 'Connection: keep-alive\r\n';
  if (!f.head) {
    if (f.minor === 1 || keepAlive10) s += `Content-Length: ${length}\r\n`;
    if (own !== 'json') s += 'Content-Type: text/html; charset=ISO-8859-1\r\n';
  }
  if (f.wantsClose) s += 'Connection: close\r\n';
  return s + '\r\n';
}

/** libevent's HTML error page body for a status (§1.3.4). */
export function errorPageBody(status: number): string {
  const reason = REASONS[status] ?? 'Error';
  return `<HTML><HEAD>\n<TITLE>${status} ${reason}</TITLE>\n</HEAD><BODY>\n<H1>${reason}</H1>\n</BODY></HTML>\n`;
}

/**
 * A complete libevent error page (400, 413, 417, 501, 503): always `HTTP/1.1`, headers reset
 * to Content-Type, `Connection: close`, Date, Content-Length; the connection closes after it.
 */
export function errorPage(status: number): Buffer {
  const body = errorPageBody(status);
  return Buffer.from(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nContent-Type: text/html\r\nConnection: close\r\n` +
      `Date: ${currentHttpDate()}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    'latin1',
  );
}

/** The interim reply to `Expect: 100-continue`. */
export const CONTINUE_REPLY = Buffer.from('HTTP/1.1 100 Continue\r\n\r\n', 'latin1');
