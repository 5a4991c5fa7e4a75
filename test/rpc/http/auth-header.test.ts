import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../../src/rpc/http/auth.js';

// 13 bytes: its base64 ends in padding, which zcashd's lenient decoding also accepts left out.
const auth = createAuthenticator({ rpcUser: 'alice', rpcPassword: 'secret1', rpcAuth: [], cookieFile: '/nonexistent/.cookie' });
const exact = 'Basic YWxpY2U6c2VjcmV0MQ==';

describe('the credential check, the header every client sends and its variants', () => {
  it('grants the exact header and every spelling zcashd’s DecodeBase64 reads as the same credential', () => {
    expect(Buffer.from('YWxpY2U6c2VjcmV0MQ==', 'base64').toString('utf8')).toBe('alice:secret1');
    expect(auth.check(exact)).toBe(true);
    expect(auth.check('Basic YWxpY2U6c2VjcmV0MQ')).toBe(true);
    expect(auth.check('Basic YWxpY2U6c2VjcmV0MQ=')).toBe(true);
    expect(auth.check('Basic  YWxpY2U6c2VjcmV0MQ== ')).toBe(true);
    expect(auth.check('Basic YWxpY2U6c2VjcmV0MQ==garbage')).toBe(true);
  });

  it('refuses a header of the same length with other bytes, or a character beyond Latin-1 whose low byte matches', () => {
    expect(auth.check('Basic YWxpY2U6c2VjcmV0Mg==')).toBe(false); // alice:secret2
    expect(auth.check('basic YWxpY2U6c2VjcmV0MQ==')).toBe(false);
    // U+0142's low byte is 0x42, 'B': written as Latin-1 it would equal the exact header's bytes.
    const lookalike = '\u0142' + exact.slice(1);
    expect(Buffer.from(lookalike, 'latin1').equals(Buffer.from(exact, 'latin1'))).toBe(true);
    expect(auth.check(lookalike)).toBe(false);
    expect(auth.check('')).toBe(false);
  });
});
