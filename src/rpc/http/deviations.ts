/**
 * Where zecrpc's HTTP layer answers differently from zcashd v6.12.2's libevent 2.1.12, now that
 * requests are parsed by Node's llhttp under Fastify. None of these touch JSON-RPC: status
 * codes, envelopes, batches, authentication and error texts are zcashd's. Each entry is
 * asserted by a test in test/rpc/server.test.ts or test/stress/transport.test.ts.
 *
 * `method` is the HTTP aspect, `member` the detail, `since` the issue that introduced it.
 */

export interface HttpDeviation {
  method: string;
  member: string;
  why: string;
  since: string;
}

const SINCE = 'issue 37 (Fastify front end)';

export const HTTP_DEVIATIONS: readonly HttpDeviation[] = [
  {
    method: 'status line',
    member: 'HTTP/1.0 requests',
    why: 'Node always answers `HTTP/1.1`; libevent echoed `HTTP/1.0`. The connection still closes unless the request asked for keep-alive.',
    since: SINCE,
  },
  {
    method: 'headers',
    member: 'names, order and additions',
    why: "Header names are written in lower case by Fastify, in its order, with Node's `Connection` and `Keep-Alive: timeout=N` added; values (Content-Type, WWW-Authenticate, Content-Length, Date) are zcashd's. HTTP header names are case-insensitive.",
    since: SINCE,
  },
  {
    method: 'request head',
    member: 'size limit',
    why: "llhttp counts the whole head with its line ends against 8 KiB (libevent: request line and headers without line ends, 8,192 bytes) and answers 431 with libevent's page instead of 400.",
    since: SINCE,
  },
  {
    method: 'request head',
    member: 'lenient forms libevent accepted',
    why: 'llhttp refuses with 400 what libevent read leniently and what allows request smuggling: a NUL or bare CR in a header value, an empty header name, trailing spaces after the HTTP version, a signed or repeated Content-Length, Content-Length beside chunked encoding, lower-case methods; it skips an empty line before the request line, which libevent refused.',
    since: SINCE,
  },
  {
    method: 'request body',
    member: 'chunk sizes',
    why: "Chunk sizes are hexadecimal digits with optional extensions; `0x`, a sign or leading spaces (read by libevent's strtoll) and malformed chunking are 400 with libevent's page, not 413.",
    since: SINCE,
  },
  {
    method: 'request body',
    member: 'unauthenticated chunked body that is malformed',
    why: 'When the malformed chunk arrives with the head, llhttp rejects it before the 401 goes out, so the reply is the 400 page; libevent sent the 401.',
    since: SINCE,
  },
  {
    method: 'request body',
    member: '413 before authentication',
    why: 'A Content-Length over 32 MiB is refused after the credentials are checked (401 first without them); libevent refused it from the head before any check.',
    since: SINCE,
  },
  {
    method: 'Connection header',
    member: 'close in a list',
    why: 'Node closes the connection when `close` appears anywhere in the Connection list (RFC 9110 §7.6.1); libevent only when it was the whole value.',
    since: SINCE,
  },
  {
    method: 'connection',
    member: 'end after a reply that closes',
    why: "Node destroys the socket once the reply is written; libevent half-closed it and waited up to -rpcservertimeout for the client's FIN.",
    since: SINCE,
  },
  {
    method: 'connection',
    member: '-rpcservertimeout on a request',
    why: 'The timeout is an idle timeout (no byte read or written for that long), between and within requests; libevent timed a request from its first byte. Node adds one second to the keep-alive wait between requests.',
    since: SINCE,
  },
  {
    method: 'REST',
    member: '/rest/getutxos',
    why: "Not served (404 with an empty body): zecrpc keeps no mempool whose coins `checkmempool` would read. The other REST routes are zcashd's.",
    since: SINCE,
  },
];
