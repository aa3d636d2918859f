import { isIP } from 'node:net';
import forge from 'node-forge';

// The nameConstraints extension (RFC 5280 section 4.2.1.10) of the server's local CA: the CA may
// vouch only for the server's own DNS names, so a user who trusts it trusts no other site's name, even
// if its key leaks. Addresses are left unconstrained on purpose: BoringSSL-based clients (Claude Code's
// native build, Bun) refuse any CA carrying iPAddress constraints ("unsupported name constraint
// type"), and a CA nobody can use protects nothing. RFC 5280 leaves a name type without subtrees
// unconstrained, so the leaf's 127.0.0.1 and ::1 still verify. forge reads the extension but cannot
// write it, so it is built here with forge's ASN.1 codec.

const { asn1 } = forge;
type Asn1 = forge.asn1.Asn1;

export const NAME_CONSTRAINTS_OID = '2.5.29.30';

/** GeneralName tags (RFC 5280 section 4.2.1.6), IMPLICIT in the PKIX module. */
const DNS_NAME = 2;
const IP_ADDRESS = 7;

export interface PermittedNames {
  /** DNS subtrees: each permits the name itself and every name below it. */
  dns: string[];
  /** Address ranges as the raw address and mask octets (4 + 4 or 16 + 16 bytes). */
  ip: { address: Buffer; mask: Buffer }[];
}

/**
 * The subtrees that permit exactly `names`: each DNS name (a leading `*.` wildcard stands for its
 * parent domain, which covers it) and each address as a single-host range (/32 or /128).
 */
export function permittedFor(names: string[]): PermittedNames {
  const dns = new Set<string>();
  const ip = new Map<string, { address: Buffer; mask: Buffer }>();
  for (const name of names) {
    const address = ipBytes(name);
    if (address) ip.set(address.toString('hex'), { address, mask: Buffer.alloc(address.length, 0xff) });
    else dns.add(name.toLowerCase().replace(/^\*\./, ''));
  }
  return { dns: [...dns], ip: [...ip.values()] };
}

/** The critical extension, in the shape forge's `setExtensions` passes through as is. */
export function nameConstraintsExtension(names: string[]): { id: string; critical: true; value: Asn1 } {
  const { dns } = permittedFor(names);
  const subtree = (tag: number, bytes: string): Asn1 =>
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, tag, false, bytes),
    ]);
  // DNS subtrees only: see the top of this file for why addresses carry none.
  const permitted = dns.map((d) => subtree(DNS_NAME, d));
  return {
    id: NAME_CONSTRAINTS_OID,
    critical: true,
    value: asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      // permittedSubtrees [0] IMPLICIT GeneralSubtrees; no excludedSubtrees.
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, permitted),
    ]),
  };
}

/**
 * The permitted subtrees of an extension value (its DER as a binary string). Throws on excluded
 * subtrees or a name type other than DNS/IP: the server never writes those, so such a CA is not its own.
 */
export function readPermitted(der: string): PermittedNames {
  const root = asn1.fromDer(der);
  const out: PermittedNames = { dns: [], ip: [] };
  const parts = root.value as Asn1[];
  if (!Array.isArray(parts) || parts.length !== 1) throw new Error('unexpected nameConstraints shape');
  const trees = parts[0] as Asn1;
  if (trees.tagClass !== asn1.Class.CONTEXT_SPECIFIC || trees.type !== 0 || !Array.isArray(trees.value))
    throw new Error('nameConstraints without permittedSubtrees only');
  for (const subtree of trees.value) {
    const base = (subtree.value as Asn1[])[0];
    if (!base || typeof base.value !== 'string') throw new Error('malformed GeneralSubtree');
    if (base.type === DNS_NAME) out.dns.push(base.value.toLowerCase());
    else if (base.type === IP_ADDRESS && (base.value.length === 8 || base.value.length === 32)) {
      const bytes = Buffer.from(base.value, 'binary');
      const half = bytes.length / 2;
      out.ip.push({ address: bytes.subarray(0, half), mask: bytes.subarray(half) });
    } else throw new Error(`unexpected GeneralName type ${base.type} in nameConstraints`);
  }
  return out;
}

/** Whether `name` (a DNS name or an address) lies inside the permitted subtrees, as a verifier checks. */
export function permits(p: PermittedNames, name: string): boolean {
  const address = ipBytes(name);
  if (address) {
    // No address subtree at all: addresses are unconstrained (RFC 5280), as the server writes its CA.
    if (p.ip.length === 0) return true;
    return p.ip.some(
      (r) =>
        r.address.length === address.length &&
        address.every(
          (b, i) => (b & (r.mask[i] as number)) === ((r.address[i] as number) & (r.mask[i] as number)),
        ),
    );
  }
  const dns = name.toLowerCase();
  return p.dns.some((base) => dns === base || dns.endsWith(`.${base}`));
}

/** The octets of an IPv4 or IPv6 address (a bracketed IPv6 literal too); null for a DNS name. */
export function ipBytes(raw: string): Buffer | null {
  const value = raw.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(value);
  if (family === 4) return Buffer.from(value.split('.').map(Number));
  if (family !== 6) return null;
  let text = value;
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (s: string): string[] => (s === '' ? [] : s.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const out = Buffer.alloc(16);
  all.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}
