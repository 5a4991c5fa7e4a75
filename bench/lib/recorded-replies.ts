/**
 * The reply bytes the front-end bench's replay servers answer with (http-ceiling-server.ts and
 * fastify-ceiling-server.ts): REPLIES names a JSON file [{ "body": request body, "reply": base64
 * of zecrpc's whole reply }], read into request body → status, Content-Type and body bytes.
 */
import { readFileSync } from 'node:fs';

export interface RecordedReply {
  status: number;
  type: string;
  body: Buffer;
}

export function recordedReplies(file = process.env.REPLIES!): Map<string, RecordedReply> {
  const replies = new Map<string, RecordedReply>();
  for (const r of JSON.parse(readFileSync(file, 'utf8')) as { body: string; reply: string }[]) {
    const bytes = Buffer.from(r.reply, 'base64');
    const sep = bytes.indexOf('\r\n\r\n');
    const head = bytes.toString('latin1', 0, sep);
    const status = Number(/^HTTP\/1\.\d (\d{3})/.exec(head)![1]);
    const type = /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1] ?? 'application/json';
    replies.set(r.body, { status, type, body: bytes.subarray(sep + 4) });
  }
  return replies;
}
