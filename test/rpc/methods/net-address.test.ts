// zcashd's numeric address forms (src/netbase.cpp): inet_ntop's IPv6 text (glibc: the first
// longest run of two or more zero words as "::", an IPv4-compatible tail dotted), IPv4-mapped
// addresses as IPv4, SplitHostPort, CSubNet masks and CNetAddr::IsValid.
import { describe, expect, it } from 'vitest';
import {
  addressText,
  isValidAddress,
  parseNumericAddress,
  parseSubNet,
  splitHostPort,
  subNetText,
} from '../../../src/rpc/methods/network/net-address.js';

const text = (s: string) => addressText(parseNumericAddress(s)!);

describe('numeric network addresses', () => {
  it('IPv6 text as inet_ntop writes it', () => {
    expect(text('1:0:0:0:0:0:0:0')).toBe('1::');
    expect(text('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(text('1:0:2:0:0:3:0:0')).toBe('1:0:2::3:0:0');
    expect(text('1:0:0:2:0:0:0:3')).toBe('1:0:0:2::3');
    expect(text('1:2:3:4:5:6:7:0')).toBe('1:2:3:4:5:6:7:0');
    expect(text('1:2:3:0:5:6:7:8')).toBe('1:2:3:0:5:6:7:8');
    expect(text('::102:304')).toBe('::1.2.3.4');
    expect(text('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(text('[FE80::0202:B3FF:FE1E:8329]')).toBe('fe80::202:b3ff:fe1e:8329');
    expect(text('10.0.0.1')).toBe('10.0.0.1');
    expect(parseNumericAddress('example.com')).toBeNull();
    expect(parseNumericAddress('1.2.3')).toBeNull();
    expect(parseNumericAddress('fe80::1%eth0')).toBeNull();
  });

  it('IsValid', () => {
    for (const bad of ['0.0.0.0', '255.255.255.255', '::', '2001:db8::1', '0:0:0:ff:ff00::']) {
      expect([bad, isValidAddress(parseNumericAddress(bad)!)]).toEqual([bad, false]);
    }
    for (const good of ['127.0.0.0', '1.2.3.4', '::1', '2001:db9::1'])
      expect([good, isValidAddress(parseNumericAddress(good)!)]).toEqual([good, true]);
  });

  it('SplitHostPort', () => {
    expect(splitHostPort('1.2.3.4:9000', 8233)).toEqual({ host: '1.2.3.4', port: 9000 });
    expect(splitHostPort('1.2.3.4', 8233)).toEqual({ host: '1.2.3.4', port: 8233 });
    expect(splitHostPort('[::1]:9000', 8233)).toEqual({ host: '::1', port: 9000 });
    expect(splitHostPort('[::1]', 8233)).toEqual({ host: '::1', port: 8233 });
    expect(splitHostPort('::1', 8233)).toEqual({ host: '::1', port: 8233 });
    expect(splitHostPort('host:0', 8233)).toEqual({ host: 'host:0', port: 8233 });
    expect(splitHostPort('host:65536', 8233)).toEqual({ host: 'host:65536', port: 8233 });
    expect(splitHostPort('seed.example:18233', 8233)).toEqual({ host: 'seed.example', port: 18233 });
  });

  it('CSubNet masks and their text', () => {
    expect(subNetText(parseSubNet('10.1.2.3/8')!)).toBe('10.0.0.0/8');
    expect(subNetText(parseSubNet('10.1.2.3/0')!)).toBe('0.0.0.0/0');
    expect(subNetText(parseSubNet('10.1.2.3/255.0.255.0')!)).toBe('10.0.2.0/255.0.255.0');
    expect(subNetText(parseSubNet('2001:4d48::1/ffff:0:ffff::')!)).toBe('2001::/ffff:0:ffff:0:0:0:0:0');
    expect(parseSubNet('10.1.2.3/33')).toBeNull();
    expect(parseSubNet('10.1.2.3/-1')).toBeNull();
    expect(parseSubNet('::1/129')).toBeNull();
    expect(parseSubNet('host/8')).toBeNull();
    expect(parseSubNet('10.0.0.1/x')).toBeNull();
  });
});
