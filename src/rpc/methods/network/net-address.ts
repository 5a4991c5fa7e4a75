/**
 * zcashd's numeric network addresses (v6.12.2 src/netbase.cpp): CNetAddr as 16 bytes (IPv4 in
 * the ::ffff:0:0/96 range), its text form, CService's "host:port", and CSubNet (an address and a
 * 16-byte mask) with its parse, text form, order and match, for the ban list and the added-node
 * list of a node without peers. Only numeric addresses are read (zcashd's LookupHost without name
 * lookup, which setban uses); a name resolves elsewhere (getaddednodeinfo's DNS lookup).
 */
import { isIPv4, isIPv6 } from 'node:net';

const IPV4_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

export type NetAddr = Uint8Array;

function isIPv4Mapped(ip: NetAddr): boolean {
  for (let i = 0; i < 12; i++) if (ip[i] !== IPV4_PREFIX[i]) return false;
  return true;
}

function parseIPv4(text: string): NetAddr {
  const ip = new Uint8Array(16);
  ip.set(IPV4_PREFIX);
  text.split('.').forEach((part, i) => (ip[12 + i] = Number(part)));
  return ip;
}

function parseIPv6(text: string): NetAddr {
  const ip = new Uint8Array(16);
  let groups: number[];
  let tail = text;
  const words: number[] = [];
  // An embedded dotted quad is the last 32 bits.
  const lastColon = tail.lastIndexOf(':');
  const last = tail.slice(lastColon + 1);
  let embedded: number[] = [];
  if (last.includes('.')) {
    const v4 = last.split('.').map(Number);
    embedded = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    tail = tail.slice(0, lastColon + 1) + '0';
  }
  const gap = tail.indexOf('::');
  const toWords = (s: string): number[] => (s === '' ? [] : s.split(':').map((w) => parseInt(w, 16)));
  if (gap >= 0) {
    const head = toWords(tail.slice(0, gap));
    const rest = toWords(tail.slice(gap + 2));
    if (embedded.length) rest.pop();
    const fill = 8 - head.length - rest.length - embedded.length;
    groups = [...head, ...new Array<number>(fill).fill(0), ...rest, ...embedded];
  } else {
    groups = toWords(tail);
    if (embedded.length) groups = [...groups.slice(0, -1), ...embedded];
  }
  words.push(...groups);
  words.forEach((w, i) => {
    ip[2 * i] = w >> 8;
    ip[2 * i + 1] = w & 0xff;
  });
  return ip;
}

/**
 * LookupHost(name, fAllowLookup=false): a numeric IPv4 or IPv6 address, optionally in [brackets]
 * (inet_pton's grammar, which Node's isIP follows), else null.
 */
export function parseNumericAddress(text: string): NetAddr | null {
  let host = text;
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (isIPv4(host)) return parseIPv4(host);
  if (isIPv6(host) && !host.includes('%')) return parseIPv6(host);
  return null;
}

/**
 * CNetAddr::IsValid: not a 3-byte-shifted IPv4 prefix, not unspecified (::), not the IPv6
 * documentation range (2001:db8::/32), not IPv4 0.0.0.0 or 255.255.255.255 (INADDR_NONE).
 */
export function isValidAddress(ip: NetAddr): boolean {
  let shifted = ip[7] === 0xff && ip[8] === 0xff;
  for (let i = 0; i < 7 && shifted; i++) if (ip[i] !== 0) shifted = false;
  if (shifted) return false;
  if (ip.every((b) => b === 0)) return false;
  if (ip[0] === 0x20 && ip[1] === 0x01 && ip[2] === 0x0d && ip[3] === 0xb8) return false;
  if (isIPv4Mapped(ip)) {
    const v4 = ip.subarray(12);
    if (v4.every((b) => b === 0) || v4.every((b) => b === 0xff)) return false;
  }
  return true;
}

/** The text inet_ntop (glibc) gives an IPv6 address: the longest run of ≥2 zero words as "::". */
function ipv6Text(ip: NetAddr): string {
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push((ip[i]! << 8) | ip[i + 1]!);
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (bestLen < 2) bestStart = -1;
  // glibc writes an IPv4-compatible address (::a.b.c.d) with its dotted tail.
  if (bestStart === 0 && bestLen === 6) return `::${ip[12]}.${ip[13]}.${ip[14]}.${ip[15]}`;
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === bestStart) {
      out += '::';
      i += bestLen - 1;
      continue;
    }
    if (out !== '' && !out.endsWith(':')) out += ':';
    out += words[i]!.toString(16);
  }
  return out;
}

/** CNetAddr::ToString (ToStringIP). */
export function addressText(ip: NetAddr): string {
  if (isIPv4Mapped(ip)) return `${ip[12]}.${ip[13]}.${ip[14]}.${ip[15]}`;
  return ipv6Text(ip);
}

/** CService::ToString: "a.b.c.d:port" or "[v6]:port". */
export function serviceText(ip: NetAddr, port: number): string {
  return isIPv4Mapped(ip) ? `${addressText(ip)}:${port}` : `[${addressText(ip)}]:${port}`;
}

/**
 * SplitHostPort: a trailing ":port" (0 < port < 65536) is split off when the colon follows a
 * "]" or is the only one; surrounding brackets are removed from the host.
 */
export function splitHostPort(text: string, defaultPort: number): { host: string; port: number } {
  let host = text;
  let port = defaultPort;
  const colon = text.lastIndexOf(':');
  if (colon >= 0) {
    const bracketed = colon > 0 && text[0] === '[' && text[colon - 1] === ']';
    const multiColon = text.lastIndexOf(':', colon - 1) !== -1;
    if (bracketed || !multiColon) {
      const digits = text.slice(colon + 1);
      // ParseInt32: an optional sign, then decimal digits only, within int32.
      if (/^[+-]?[0-9]+$/.test(digits)) {
        const n = Number(digits);
        if (n > 0 && n < 0x10000) {
          host = text.slice(0, colon);
          port = n;
        }
      }
    }
  }
  if (host.length > 0 && host[0] === '[' && host[host.length - 1] === ']') host = host.slice(1, -1);
  return { host, port };
}

export interface SubNet {
  network: NetAddr;
  netmask: Uint8Array;
}

/** CSubNet(CNetAddr): the single address. */
export function singleAddressSubNet(ip: NetAddr): SubNet {
  return { network: ip, netmask: new Uint8Array(16).fill(0xff) };
}

/**
 * CSubNet(string): "address[/bits|/mask]" with a numeric address; bits count within the
 * address's own family, a mask is copied (for IPv4 into its last four bytes). Null when invalid.
 */
export function parseSubNet(text: string): SubNet | null {
  const slash = text.lastIndexOf('/');
  const network = parseNumericAddress(slash >= 0 ? text.slice(0, slash) : text);
  if (!network) return null;
  const netmask = new Uint8Array(16).fill(0xff);
  if (slash >= 0) {
    const maskText = text.slice(slash + 1);
    const offset = isIPv4Mapped(network) ? 12 : 0;
    if (/^[+-]?[0-9]+$/.test(maskText) && Math.abs(Number(maskText)) <= 0x7fffffff) {
      let n = Number(maskText);
      if (n < 0 || n > 128 - offset * 8) return null;
      for (n += offset * 8; n < 128; n++) netmask[n >> 3]! &= ~(1 << (7 - (n & 7)));
    } else {
      const mask = parseNumericAddress(maskText);
      if (!mask) return null;
      for (let i = offset; i < 16; i++) netmask[i] = mask[i]!;
    }
  }
  for (let i = 0; i < 16; i++) network[i]! &= netmask[i]!;
  return { network, netmask };
}

function netmaskBits(x: number): number {
  const bits = [0x00, 0x80, 0xc0, 0xe0, 0xf0, 0xf8, 0xfc, 0xfe, 0xff].indexOf(x);
  return bits;
}

/** CSubNet::ToString: "address/bits" when the mask is a prefix, else "address/mask". */
export function subNetText(s: SubNet): string {
  const ipv4 = isIPv4Mapped(s.network);
  let cidr = 0;
  let validCidr = true;
  let n = ipv4 ? 12 : 0;
  for (; n < 16 && s.netmask[n] === 0xff; n++) cidr += 8;
  if (n < 16) {
    const bits = netmaskBits(s.netmask[n]!);
    if (bits < 0) validCidr = false;
    else cidr += bits;
    n++;
  }
  for (; n < 16 && validCidr; n++) if (s.netmask[n] !== 0) validCidr = false;
  let mask: string;
  if (validCidr) mask = String(cidr);
  else if (ipv4) mask = `${s.netmask[12]}.${s.netmask[13]}.${s.netmask[14]}.${s.netmask[15]}`;
  else {
    const words: string[] = [];
    for (let i = 0; i < 16; i += 2) words.push(((s.netmask[i]! << 8) | s.netmask[i + 1]!).toString(16));
    mask = words.join(':');
  }
  return `${addressText(s.network)}/${mask}`;
}

/** The ban map's key order (operator< on CSubNet): the network's bytes, then the mask's. */
export function compareSubNets(a: SubNet, b: SubNet): number {
  return Buffer.compare(a.network, b.network) || Buffer.compare(a.netmask, b.netmask);
}

/** CSubNet::Match. */
export function subNetMatches(s: SubNet, ip: NetAddr): boolean {
  if (!isValidAddress(ip)) return false;
  for (let i = 0; i < 16; i++) if ((ip[i]! & s.netmask[i]!) !== s.network[i]) return false;
  return true;
}
