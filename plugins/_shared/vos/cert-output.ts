// What the VOS CLI prints about a node's certificates, read once for the audits' certificate checks and
// for the `*_cert_list` tools. Commands and lines, with their sources:
// - `show cert list own` / `show cert list trust`: Command Line Interface Reference Guide for Cisco
//   Unified Communications Solutions, 12.5(1)SU3, Show Commands, "show cert list" (`show cert list
//   {own | trust}`); one `<unit>/<file>.pem: <description>` line per certificate, as a public parser's
//   test of real CUCM 15 output shows (calltelemetry/cisco-cucm-mcp, test/certificates.test.ts, 602d6d5).
// - `show cert own <unit>`: the same chapter, "show cert own"; the end-of-validity line `To: <CLI date>`
//   is the one a public expiry script reads (sieteunoseis/cisco_uc_cli_cert_valid, getExpiration.py,
//   4c4d7d8). The other labels read here (`Serial Number:`, `Issuer Name:`, `Validity From:`,
//   `Subject Name:`, `Key: <algorithm> (<oid>)`, `Key value: <n> bits`) have no public source that was
//   read: they are the platform's wording as the lab prints it, and each is optional. When the answer
//   carries the certificate itself (a PEM block), its fields are read from it instead, which holds
//   whatever the wording.
import { X509Certificate } from 'node:crypto';

export const CERT_LIST_OWN_COMMAND = 'show cert list own';
export const CERT_LIST_TRUST_COMMAND = 'show cert list trust';
/** `show cert own <unit>/<file>.pem` (or `<unit>`). */
export const certOwnCommand = (name: string): string => `show cert own ${name}`;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const CLI_DATE = /\w{3}\s+(\w{3})\s+(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) [A-Z][A-Za-z0-9+-]{1,5} (\d{4})/;

function dateOf(m: RegExpExecArray | null): Date | undefined {
  const month = MONTHS.indexOf(m?.[1] ?? '');
  if (!m || month < 0) return undefined;
  return new Date(Date.UTC(Number(m[6]), month, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])));
}

/**
 * The `To:` date of `show cert own <file>` (`To:   Wed Dec 02 07:39:25 UTC 2026`), or undefined. A node
 * prints its own time zone (`Tue Mar  9 02:19:31 PDT 2021`); the abbreviation is read as UTC, an error of
 * hours that does not matter to the day-scale thresholds the checks apply.
 */
export function certNotAfter(output: string): Date | undefined {
  return dateOf(new RegExp(`\\bTo:\\s+${CLI_DATE.source}`).exec(output));
}

export interface CertListEntry {
  /** `tomcat/tomcat.pem`: what `show cert own` takes. */
  name: string;
  /** `tomcat`, `tomcat-trust`, `CallManager`... */
  unit: string;
  description: string;
}

/** The `<unit>/<file>.pem: <description>` lines of `show cert list own|trust`; other lines are skipped. */
export function parseCertList(output: string): CertListEntry[] {
  const out: CertListEntry[] = [];
  for (const line of output.split(/\r?\n/)) {
    const m = /^\s*([^\s/:]+)\/([^\s:]+\.(?:pem|der|crt)):\s*(.*?)\s*$/i.exec(line);
    if (m) out.push({ name: `${m[1]}/${m[2]}`, unit: m[1]!, description: m[3]! });
  }
  return out;
}

export interface CertDetails {
  subject?: string;
  issuer?: string;
  notBefore?: Date;
  notAfter?: Date;
  /** Hex as printed (or from the certificate), without a `0x` prefix, lower case. */
  serial?: string;
  keyType?: string;
  keyBits?: number;
  signatureAlgorithm?: string;
  selfSigned?: boolean;
  /** Where the fields came from: the certificate's own PEM, or the labelled lines. */
  source: 'pem' | 'text';
}

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

function line(output: string, label: string): string | undefined {
  return new RegExp(`^\\s*${label}:[ \\t]*(.*\\S)[ \\t]*$`, 'im').exec(output)?.[1];
}

/** One-line distinguished name from node's multi-line form (`C=US\nCN=x`), most significant last. */
function oneLine(dn: string): string {
  return dn.split('\n').filter(Boolean).reverse().join(', ');
}

function fromPem(pem: string): CertDetails | undefined {
  try {
    const x = new X509Certificate(pem);
    const key = x.publicKey.asymmetricKeyDetails;
    const type = x.publicKey.asymmetricKeyType;
    return {
      subject: oneLine(x.subject),
      issuer: oneLine(x.issuer),
      notBefore: new Date(x.validFrom),
      notAfter: new Date(x.validTo),
      serial: x.serialNumber.toLowerCase().replace(/^0+(?=.)/, ''),
      ...(type ? { keyType: type.toUpperCase() } : {}),
      ...(key?.modulusLength ? { keyBits: key.modulusLength } : {}),
      ...(key?.namedCurve ? { keyBits: curveBits(key.namedCurve) } : {}),
      selfSigned: x.subject === x.issuer && x.verify(x.publicKey),
      source: 'pem',
    };
  } catch {
    return undefined;
  }
}

function curveBits(curve: string): number {
  const m = /(\d{3})/.exec(curve);
  return m ? Number(m[1]) : 0;
}

/** The distinguished name's attributes, order-insensitive, for the self-signed comparison. */
function dnKey(dn: string): string {
  return dn
    .split(/,\s*/)
    .map((p) => p.trim().toLowerCase())
    .sort()
    .join(',');
}

/**
 * `show cert own <unit>`: the certificate's fields, or undefined when the answer has neither a
 * certificate nor a validity line (the node said the certificate does not exist, or another error).
 */
export function parseCertOwn(output: string): CertDetails | undefined {
  const pem = PEM.exec(output)?.[0];
  const parsed = pem ? fromPem(pem) : undefined;
  if (parsed) return parsed;
  const notAfter = certNotAfter(output);
  if (!notAfter) return undefined;
  const from = line(output, 'Validity From');
  const key = /^\s*Key:\s*([A-Za-z]+)/m.exec(output)?.[1];
  const bits = /Key value:\s*(\d+)\s*bits/i.exec(output)?.[1];
  const serial = line(output, 'Serial Number');
  const subject = line(output, 'Subject Name');
  const issuer = line(output, 'Issuer Name');
  const notBefore = from ? dateOf(CLI_DATE.exec(from)) : undefined;
  const sig = line(output, 'SignatureAlgorithm');
  return {
    ...(subject ? { subject } : {}),
    ...(issuer ? { issuer } : {}),
    ...(notBefore ? { notBefore } : {}),
    notAfter,
    ...(serial
      ? {
          serial: serial
            .toLowerCase()
            .replace(/^0x/, '')
            .replace(/^0+(?=.)/, ''),
        }
      : {}),
    ...(key ? { keyType: key.toUpperCase() } : {}),
    ...(bits ? { keyBits: Number(bits) } : {}),
    ...(sig ? { signatureAlgorithm: sig.replace(/\s*\(.*$/, '') } : {}),
    ...(subject && issuer ? { selfSigned: dnKey(subject) === dnKey(issuer) } : {}),
    source: 'text',
  };
}
