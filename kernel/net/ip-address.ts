// IP addresses as numbers, for range checks that cannot be fooled by spelling: every IPv4 notation the
// C resolver accepts (inet_aton: `2852039166`, `0xA9FEA9FE`, `0251.0376.0251.0376`, `169.254.43518`),
// IPv6 with or without an embedded dotted quad or a zone, and the IPv4 address an IPv6 one carries.
import { isIPv4, isIPv6 } from 'node:net';

export interface IpAddress {
  family: 4 | 6;
  /** The address as an unsigned 32- or 128-bit number. */
  value: bigint;
}

export interface IpRange {
  family: 4 | 6;
  /** The network, host bits cleared. */
  base: bigint;
  bits: number;
}

const WIDTH = { 4: 32, 6: 128 } as const;

/**
 * An IPv4 number in any notation inet_aton(3) accepts: one to four parts, each decimal, octal (leading
 * 0) or hexadecimal (0x), the last part filling the bytes left. Undefined for anything else (a name).
 */
export function parseIPv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length > 4) return undefined;
  const values: bigint[] = [];
  for (const p of parts) {
    let v: bigint;
    if (/^0x[0-9a-f]+$/i.test(p)) v = BigInt(p);
    else if (/^0[0-7]*$/.test(p)) v = BigInt(`0o${p.slice(1) || '0'}`);
    else if (/^[1-9][0-9]*$/.test(p)) v = BigInt(p);
    else return undefined;
    values.push(v);
  }
  const last = values.pop() as bigint;
  if (values.some((v) => v > 255n)) return undefined;
  const lastBits = BigInt(8 * (4 - values.length));
  if (last >= 1n << lastBits) return undefined;
  return values.reduce((acc, v, i) => acc | (v << BigInt(24 - 8 * i)), 0n) | last;
}

/** An IPv6 address (a `%zone` is dropped: it picks an interface, not an address). */
export function parseIPv6(text: string): bigint | undefined {
  const bare = text.replace(/%[^%]*$/, '');
  if (!isIPv6(bare)) return undefined;
  let head = bare;
  const groups: number[] = [];
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  let tail: number[] = [];
  if (quad?.[1]) {
    const v4 = Number(parseIPv4(quad[1]));
    tail = [v4 >>> 16, v4 & 0xffff];
    head = bare.slice(0, -quad[1].length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const hex = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const [left, right] = head.split('::') as [string, string | undefined];
  const l = hex(left);
  const r = [...hex(right ?? ''), ...tail];
  if (right === undefined) groups.push(...l, ...r);
  else groups.push(...l, ...Array<number>(8 - l.length - r.length).fill(0), ...r);
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

/**
 * A literal address in any of the notations above, or undefined for a name. IPv6 may come bracketed
 * (`[::1]`), as in a URL or a `host:port` field.
 */
export function parseIp(text: string): IpAddress | undefined {
  const t = /^\[(.*)\]$/.exec(text)?.[1] ?? text;
  const v6 = parseIPv6(t);
  if (v6 !== undefined) return { family: 6, value: v6 };
  const v4 = parseIPv4(t);
  return v4 === undefined ? undefined : { family: 4, value: v4 };
}

/** `::ffff:a.b.c.d` is a.b.c.d on a dual-stack socket: treated as that IPv4 address everywhere. */
export function unmapped(ip: IpAddress): IpAddress {
  if (ip.family === 6 && ip.value >> 32n === 0xffffn) return { family: 4, value: ip.value & 0xffffffffn };
  return ip;
}

/** `10.0.0.0/8`, `2001:db8::/32` or a bare address (a /32 or /128); host bits are ignored. */
export function parseRange(text: string): IpRange | undefined {
  const m = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(text.trim());
  if (!m?.[1]) return undefined;
  // Only the plain notations here: an allow list spelled `0x0a000000/8` would be a trap for the reader.
  const ip = isIPv4(m[1]) || isIPv6(m[1]) ? parseIp(m[1]) : undefined;
  if (!ip) return undefined;
  const width = WIDTH[ip.family];
  const bits = m[2] === undefined ? width : Number(m[2]);
  if (bits > width) return undefined;
  return { family: ip.family, base: mask(ip.value, bits, width), bits };
}

export function inRange(ip: IpAddress, range: IpRange): boolean {
  const width = WIDTH[ip.family];
  return ip.family === range.family && mask(ip.value, range.bits, width) === range.base;
}

function mask(value: bigint, bits: number, width: number): bigint {
  const shift = BigInt(width - bits);
  return (value >> shift) << shift;
}

/** Dotted quad, or RFC 5952 IPv6 (longest zero run as `::`). */
export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return [24n, 16n, 8n, 0n].map((s) => String((ip.value >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((ip.value >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = { at: -1, len: 1 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.len) best = { at: i, len: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.len).join(':')}`;
}

/**
 * The IPv4 address an IPv6 one hands its traffic to, by a translator or a tunnel: NAT64 (RFC 6052
 * well-known 64:ff9b::/96 and local-use 64:ff9b:1::/48, RFC 8215, at the /96 position), SIIT's
 * IPv4-translated ::ffff:0:a.b.c.d (RFC 2765), 6to4 2002:a.b.c.d::/48 (RFC 3056) and a Teredo
 * client (2001::/32, RFC 4380: the last 32 bits inverted). Undefined when it carries none.
 */
export function embeddedIPv4(ip: IpAddress): IpAddress | undefined {
  if (ip.family !== 6) return undefined;
  const v = ip.value;
  const low = v & 0xffffffffn;
  if (v >> 32n === 0x0064ff9b_0000_0000_0000_0000n) return { family: 4, value: low };
  if (v >> 80n === 0x0064_ff9b_0001n) return { family: 4, value: low };
  if (v >> 32n === 0xffff_0000n) return { family: 4, value: low };
  if (v >> 112n === 0x2002n) return { family: 4, value: (v >> 80n) & 0xffffffffn };
  if (v >> 96n === 0x2001_0000n) return { family: 4, value: low ^ 0xffffffffn };
  return undefined;
}
