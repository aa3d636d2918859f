import { createPublicKey, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';

// A PKCS#10 certificate signing request (RFC 2986) for the server's TLS certificate, with the names
// in a subjectAltName extension request (RFC 2985 extensionRequest): browsers and TLS clients match
// SANs only, never the CN. The structure is built with forge's ASN.1 codec and signed with node:crypto,
// so an operator's EC or Ed25519 key works as well as RSA (forge signs RSA only).

const { asn1 } = forge;
type Asn1 = forge.asn1.Asn1;

export interface CsrSubject {
  commonName: string;
  organization?: string;
  organizationalUnit?: string;
  locality?: string;
  state?: string;
  /** Two-letter ISO 3166 code. */
  country?: string;
}

export type SanEntry = { type: 'dns'; value: string } | { type: 'ip'; value: string };

const OID = {
  commonName: '2.5.4.3',
  country: '2.5.4.6',
  locality: '2.5.4.7',
  state: '2.5.4.8',
  organization: '2.5.4.10',
  organizationalUnit: '2.5.4.11',
  extensionRequest: '1.2.840.113549.1.9.14',
  subjectAltName: '2.5.29.17',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
} as const;

/** Subject attributes in the conventional order (C, ST, L, O, OU, CN). */
const SUBJECT_ORDER: [keyof CsrSubject, string][] = [
  ['country', OID.country],
  ['state', OID.state],
  ['locality', OID.locality],
  ['organization', OID.organization],
  ['organizationalUnit', OID.organizationalUnit],
  ['commonName', OID.commonName],
];

/** RFC 1123 host name labels, optionally a leading wildcard label. */
const DNS_NAME =
  /^(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** Classifies one SAN: an IPv4/IPv6 address or a DNS name; throws on anything else. */
export function parseSan(raw: string): SanEntry {
  const value = raw.trim().replace(/^\[(.*)\]$/, '$1');
  if (isIP(value)) return { type: 'ip', value };
  if (value.length <= 253 && DNS_NAME.test(value)) return { type: 'dns', value: value.toLowerCase() };
  throw new Error(`"${raw}" is neither a DNS name nor an IP address`);
}

/** Builds and signs the request; returns it as PEM (`CERTIFICATE REQUEST`). */
export function createCsr(opts: { privateKey: KeyObject; subject: CsrSubject; sans: SanEntry[] }): string {
  const { privateKey, subject, sans } = opts;
  const { hash, algorithm } = signatureAlgorithm(privateKey);
  const spki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const info = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(0).getBytes()),
    subjectName(subject),
    asn1.fromDer(spki.toString('binary')),
    // attributes [0] IMPLICIT SET OF Attribute
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [extensionRequest(sans)]),
  ]);
  const infoDer = Buffer.from(asn1.toDer(info).getBytes(), 'binary');
  const signature = sign(hash, infoDer, privateKey);
  const request = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    info,
    algorithm,
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BITSTRING, false, `\x00${signature.toString('binary')}`),
  ]);
  const der = Buffer.from(asn1.toDer(request).getBytes(), 'binary');
  const body = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN CERTIFICATE REQUEST-----\n${body}\n-----END CERTIFICATE REQUEST-----\n`;
}

function signatureAlgorithm(key: KeyObject): { hash: string | null; algorithm: Asn1 } {
  const algId = (oid: string, nullParams: boolean): Asn1 =>
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      oidNode(oid),
      ...(nullParams ? [asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, '')] : []),
    ]);
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return { hash: 'sha256', algorithm: algId('1.2.840.113549.1.1.11', true) };
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      // The hash matches the curve's strength, as CAs expect (RFC 5480 section 4).
      if (curve === 'prime256v1') return { hash: 'sha256', algorithm: algId('1.2.840.10045.4.3.2', false) };
      if (curve === 'secp384r1') return { hash: 'sha384', algorithm: algId('1.2.840.10045.4.3.3', false) };
      if (curve === 'secp521r1') return { hash: 'sha512', algorithm: algId('1.2.840.10045.4.3.4', false) };
      throw new Error(`EC curve ${curve ?? '(unknown)'} is not supported (P-256, P-384, P-521)`);
    }
    case 'ed25519':
      return { hash: null, algorithm: algId('1.3.101.112', false) };
    default:
      throw new Error(`${key.asymmetricKeyType ?? 'unknown'} keys are not supported (RSA, EC or Ed25519)`);
  }
}

function subjectName(subject: CsrSubject): Asn1 {
  const rdns: Asn1[] = [];
  for (const [field, oid] of SUBJECT_ORDER) {
    const value = subject[field];
    if (value === undefined || value === '') continue;
    // countryName is a PrintableString by definition (X.520); everything else UTF8String.
    const type = field === 'country' ? asn1.Type.PRINTABLESTRING : asn1.Type.UTF8;
    const bytes = field === 'country' ? value : forge.util.encodeUtf8(value);
    rdns.push(
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
          oidNode(oid),
          asn1.create(asn1.Class.UNIVERSAL, type, false, bytes),
        ]),
      ]),
    );
  }
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, rdns);
}

function extensionRequest(sans: SanEntry[]): Asn1 {
  const generalNames = asn1.create(
    asn1.Class.UNIVERSAL,
    asn1.Type.SEQUENCE,
    true,
    // dNSName [2] IA5String, iPAddress [7] OCTET STRING, both IMPLICIT (RFC 5280 section 4.2.1.6).
    sans.map((s) =>
      s.type === 'dns'
        ? asn1.create(asn1.Class.CONTEXT_SPECIFIC, 2, false, s.value)
        : asn1.create(asn1.Class.CONTEXT_SPECIFIC, 7, false, ipBytes(s.value).toString('binary')),
    ),
  );
  const serverAuth = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [oidNode(OID.serverAuth)]);
  const extensions = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    extension(OID.subjectAltName, generalNames),
    extension(OID.extKeyUsage, serverAuth),
  ]);
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    oidNode(OID.extensionRequest),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, [extensions]),
  ]);
}

function extension(oid: string, value: Asn1): Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    oidNode(oid),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, asn1.toDer(value).getBytes()),
  ]);
}

function oidNode(oid: string): Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(oid).getBytes());
}

/** The 4 or 16 address bytes of an IPv4 or IPv6 literal (IPv4-embedded IPv6 included). */
export function ipBytes(address: string): Buffer {
  if (isIP(address) === 4) return Buffer.from(address.split('.').map(Number));
  // `::ffff:192.0.2.1`: the dotted tail becomes two hex groups, so only hex groups remain to parse.
  const text = address.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_m, a: string, b: string, c: string, d: string) =>
      [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((n) => n.toString(16)).join(':'),
  );
  const groups = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const [head = '', rest] = text.split('::');
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const zeros = Array<number>(8 - left.length - right.length).fill(0);
  const out = Buffer.alloc(16);
  [...left, ...zeros, ...right].forEach((g, i) => out.writeUInt16BE(g, i * 2));
  return out;
}
