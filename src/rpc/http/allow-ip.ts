/**
 * `-rpcallowip` as zcashd v6.12.2 reads and matches it (netbase.cpp: CSubNet, LookupHost with
 * lookups off, CSubNet::Match). Node's BlockList is not used: it cannot hold what zcashd accepts,
 * a netmask that is not contiguous, or an IPv6 netmask.
 *
 * Every address is 16 bytes, IPv4 as ::ffff:a.b.c.d. A subnet is a network and a 16-byte mask:
 * all ones for a single address; from a count of bits (after the ::ffff: prefix for IPv4); or,
 * for a netmask written as an address, that address's bytes copied in (its last four for an IPv4
 * network), whatever their pattern. A peer matches when its bytes under the mask equal the
 * network's, so IPv4 subnets match IPv4 peers and their IPv4-mapped IPv6 form alike.
 */

export interface AllowSubnet {
  network: Uint8Array;
  mask: Uint8Array;
}

/** zcashd's message, which lists the three accepted forms. */
export function invalidAllowIp(entry: string): string {
  return (
    `Invalid -rpcallowip subnet specification: ${entry}. Valid are a single IP (e.g. 1.2.3.4), ` +
    'a network/netmask (e.g. 1.2.3.4/255.255.255.0) or a network/CIDR (e.g. 1.2.3.4/24).'
  );
}

/** The IPv4-mapped prefix zcashd stores IPv4 addresses under. */
const IPV4_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

function ipv4Bytes(value: number): Uint8Array {
  return Uint8Array.from([...IPV4_PREFIX, value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);
}

const isIpv4Mapped = (b: Uint8Array): boolean => IPV4_PREFIX.every((x, i) => b[i] === x);

/** inet_pton(AF_INET): exactly four decimal bytes, no leading zeros. */
function strictIpv4(text: string): number | null {
  const m = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$/.exec(text);
  if (!m) return null;
  const bytes = m.slice(1).map(Number);
  if (bytes.some((b) => b > 255)) return null;
  return ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
}

/**
 * glibc's inet_aton_exact, what getaddrinfo accepts as a numeric IPv4 host: one to four parts,
 * each decimal, octal (a leading 0) or hexadecimal (0x), the last filling the remaining bytes
 * ("127.1" is 127.0.0.1, "0x7f000001" too).
 */
function atonIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    const m = /^(?:0[xX]([0-9a-fA-F]*)|(0[0-7]*)|([1-9]\d*))$/.exec(part);
    if (!m) return null;
    const value = m[1] !== undefined ? (m[1] === '' ? 0 : parseInt(m[1], 16)) : m[2] !== undefined ? parseInt(m[2], 8) : Number(m[3]);
    if (!Number.isSafeInteger(value)) return null;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 0xff) || last > 2 ** (8 * (4 - values.length)) - 1) return null;
  let result = 0;
  values.forEach((v, i) => (result += v * 2 ** (8 * (3 - i))));
  return result + last;
}

/** inet_pton(AF_INET6): hex groups with at most one `::`, optionally ending in a strict IPv4. */
function ipv6Bytes(text: string): Uint8Array | null {
  const lastColon = text.lastIndexOf(':');
  if (lastColon < 0) return null;
  let body = text;
  let tail: number | null = null;
  if (text.includes('.', lastColon)) {
    tail = strictIpv4(text.slice(lastColon + 1));
    if (tail === null) return null;
    body = text.slice(0, lastColon + 1);
    if (!body.endsWith('::')) body = body.slice(0, -1); // the colon before the IPv4 part
  }
  const groupsAllowed = tail === null ? 8 : 6;
  const parse = (s: string): number[] | null => {
    if (s === '') return [];
    const groups = s.split(':');
    return groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g)) ? groups.map((g) => parseInt(g, 16)) : null;
  };
  const halves = body.split('::');
  let groups: number[] | null;
  if (halves.length === 2) {
    const left = parse(halves[0]!);
    const right = parse(halves[1]!);
    if (!left || !right || left.length + right.length >= groupsAllowed) return null;
    groups = [...left, ...new Array<number>(groupsAllowed - left.length - right.length).fill(0), ...right];
  } else {
    groups = halves.length === 1 ? parse(body) : null;
    if (!groups || groups.length !== groupsAllowed) return null;
  }
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  if (tail !== null) out.set(ipv4Bytes(tail).subarray(12), 12);
  return out;
}

/** The prefix zcashd stores a Tor (v2) address under (OnionCat). */
const ONION_CAT = [0xfd, 0x87, 0xd8, 0x7e, 0xeb, 0x43];

/** CNetAddr::SetSpecial: `<16 base32 characters>.onion` as its 10 bytes under the OnionCat prefix. */
function onionBytes(host: string): Uint8Array | null {
  const m = /^([a-zA-Z2-7]{16})\.onion$/.exec(host);
  if (!m) return null;
  let bits = 0;
  let acc = 0;
  const out = [...ONION_CAT];
  for (const c of m[1]!.toLowerCase()) {
    acc = (acc << 5) | 'abcdefghijklmnopqrstuvwxyz234567'.indexOf(c);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

/**
 * LookupHost with lookups off: a Tor address, then `[…]` stripped, IPv4, IPv6 (a `%zone` after it
 * dropped: addresses are matched without their zone), then getaddrinfo's numeric IPv4 forms.
 */
export function numericHostBytes(text: string): Uint8Array | null {
  let host = text;
  if (host === '') return null;
  const onion = onionBytes(host);
  if (onion) return onion;
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  const v4 = strictIpv4(host);
  if (v4 !== null) return ipv4Bytes(v4);
  const zone = host.indexOf('%');
  const v6 = ipv6Bytes(zone > 0 && host.includes(':') ? host.slice(0, zone) : host);
  if (v6) return v6;
  const aton = atonIpv4(host);
  return aton === null ? null : ipv4Bytes(aton);
}

/** CSubNet(entry): null where zcashd's subnet is invalid. */
export function parseAllowSubnet(entry: string): AllowSubnet | null {
  const slash = entry.lastIndexOf('/');
  const network = numericHostBytes(slash < 0 ? entry : entry.slice(0, slash));
  if (!network) return null;
  const mask = new Uint8Array(16).fill(0xff);
  if (slash >= 0) {
    const maskText = entry.slice(slash + 1);
    const start = isIpv4Mapped(network) ? 12 : 0;
    // ParseInt32: an optional sign and decimal digits, no spaces, within int32.
    if (/^[+-]?\d+$/.test(maskText) && Math.abs(Number(maskText)) <= 0x7fffffff) {
      const bits = Number(maskText);
      if (bits < 0 || bits > 128 - 8 * start) return null;
      for (let n = bits + 8 * start; n < 128; n++) mask[n >> 3]! &= ~(1 << (7 - (n & 7)));
    } else {
      const maskBytes = numericHostBytes(maskText);
      if (!maskBytes) return null;
      mask.set(maskBytes.subarray(start), start);
    }
  }
  for (let i = 0; i < 16; i++) network[i]! &= mask[i]!;
  return { network, mask };
}

/** CSubNet::Match. */
export function subnetMatches(subnet: AllowSubnet, address: Uint8Array): boolean {
  for (let i = 0; i < 16; i++) if ((address[i]! & subnet.mask[i]!) !== subnet.network[i]) return false;
  return true;
}

/** zcashd's allow list: 127.0.0.0/8 and ::1 always, then each `-rpcallowip` entry; throws zcashd's message on an invalid one. */
export function parseAllowList(entries: readonly string[]): AllowSubnet[] {
  return ['127.0.0.0/8', '::1', ...entries].map((entry) => {
    const subnet = parseAllowSubnet(entry);
    if (!subnet) throw new Error(invalidAllowIp(entry));
    return subnet;
  });
}

/**
 * CNetAddr::IsValid, which zcashd's ClientAllowed asks first: not ::, not the IPv4-mapped prefix
 * shifted by three bytes, not the documentation range 2001:db8::/32, not 0.0.0.0 or
 * 255.255.255.255.
 */
function isValidAddress(b: Uint8Array): boolean {
  if (b.subarray(0, 9).every((x, i) => x === IPV4_PREFIX[i + 3])) return false;
  if (b.every((x) => x === 0)) return false;
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return false;
  if (isIpv4Mapped(b)) {
    const v4 = b.subarray(12);
    if (v4.every((x) => x === 0) || v4.every((x) => x === 0xff)) return false;
  }
  return true;
}

/** Whether a peer (a socket's remote address, a link-local one with its `%zone`) may connect. */
export function peerAllowed(list: readonly AllowSubnet[], peer: string): boolean {
  const bytes = numericHostBytes(peer);
  return bytes !== null && isValidAddress(bytes) && list.some((subnet) => subnetMatches(subnet, bytes));
}
