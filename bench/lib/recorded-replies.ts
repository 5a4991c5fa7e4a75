/**
 * The reply bytes the replay servers on node:http and Fastify answer with (http-ceiling-server.ts
 * and fastify-ceiling-server.ts, run by bench/front-end.ts and bench/large-tx.ts): REPLIES names
 * a JSON file [{ "body": request body, "reply": base64 of zecrpc's whole reply }], read into a
 * lookup from a request body's bytes to the status, Content-Type and body bytes to answer.
 *
 * A request is matched by its bytes (its length, then a byte comparison), as the node:net ceiling
 * matches it: a 200 kB raw transaction's body is never made into a string and hashed, which
 * zecrpc must do in part (it parses the JSON) but a server replaying bytes need not, so the
 * floors stay the least a server on their stack does.
 */
import { readFileSync } from 'node:fs';

export interface RecordedReply {
  status: number;
  type: string;
  body: Buffer;
}

/** The recorded reply to a request whose body is `body`, or undefined. */
export type ReplyLookup = (body: Buffer) => RecordedReply | undefined;

/** Each recorded request body with the reply to it, in the file's order. */
export function readRecordedReplies(file = process.env.REPLIES!): { request: Buffer; reply: RecordedReply }[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { body: string; reply: string }[]).map((r) => {
    const bytes = Buffer.from(r.reply, 'base64');
    const sep = bytes.indexOf('\r\n\r\n');
    const head = bytes.toString('latin1', 0, sep);
    const status = Number(/^HTTP\/1\.\d (\d{3})/.exec(head)![1]);
    const type = /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1] ?? 'application/json';
    return { request: Buffer.from(r.body, 'utf8'), reply: { status, type, body: bytes.subarray(sep + 4) } };
  });
}

export function recordedReplies(file = process.env.REPLIES!): ReplyLookup {
  const byLength = new Map<number, { request: Buffer; reply: RecordedReply }[]>();
  for (const r of readRecordedReplies(file)) {
    const sameLength = byLength.get(r.request.length) ?? [];
    sameLength.push(r);
    byLength.set(r.request.length, sameLength);
  }
  return (body) => byLength.get(body.length)?.find((r) => r.request.equals(body))?.reply;
}
