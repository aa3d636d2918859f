// certificate_generate_csr: a PKCS#10 request for a CA-signed TLS certificate (functional spec,
// operator scripts). The signed certificate is then installed with TLS_CERT_FILE / TLS_KEY_FILE, which
// the server loads as the operator's pair and never replaces (kernel/tls/certificate.ts).

import { relative, resolve } from 'node:path';
import { EXIT, type CliCommand } from '../command.ts';
import { operatorSettings } from '../../support/settings.ts';
import { writeFileAtomic } from '../../store/atomic-file.ts';
import { CSR_KEY_FILE, resolveCsrKey, type CsrKey } from '../../tls/csr-key.ts';
import { createCsr, parseSan, type CsrSubject, type SanEntry } from '../../tls/csr.ts';
import { STATE_DIR_OPTION } from '../common-options.ts';

const HELP = `Writes a certificate signing request (PEM) for the server's TLS certificate, with the names in a
subjectAltName extension (DNS names and IP addresses). The CN is added as the first SAN when it is a host
name; extra arguments after the options are taken as SANs too. The private key is reused when one
exists, first match wins:
  --key <path>; TLS_KEY_FILE; secrets/${CSR_KEY_FILE} (made by an earlier run); secrets/tls_key.pem
  (the key of the certificate the server issued itself, from its local CA).
Otherwise a new RSA-2048 key is written (0600) to --key, TLS_KEY_FILE or secrets/${CSR_KEY_FILE}.
The private key is never printed.

Example:
  certificate_generate_csr --cn uc-mcp.example.com --san uc-mcp.example.com,10.0.0.5 --org "Example Ltd" --out uc-mcp.csr

Then have the CA sign it and set TLS_CERT_FILE=<signed certificate>, TLS_KEY_FILE=<the key named
above>, TLS_CA_FILE=<intermediate chain> in .env, and restart the server. Until then the server's own
certificate stays in use; if the CSR used secrets/tls_key.pem, install the signed certificate before the
server's own one is renewed (at half its life), or copy that key elsewhere and point TLS_KEY_FILE at it.

Exit codes: 0 written; 1 failed (key unreadable or unsupported); 2 usage error.`;

export const command: CliCommand = {
  name: 'certificate_generate_csr',
  summary: 'generate a TLS CSR with SAN extension; reuses an existing private key if present',
  help: HELP,
  options: [
    { name: 'cn', type: 'string', description: 'subject common name (required), e.g. the public host name' },
    {
      name: 'san',
      type: 'string',
      description: 'subject alternative names, comma-separated DNS names and IP addresses',
    },
    { name: 'org', type: 'string', description: 'subject organization (O)' },
    { name: 'ou', type: 'string', description: 'subject organizational unit (OU)' },
    { name: 'locality', type: 'string', description: 'subject locality (L)' },
    { name: 'province', type: 'string', description: 'subject state or province (ST)' },
    { name: 'country', type: 'string', description: 'subject country (C), two letters' },
    { name: 'out', type: 'string', description: 'write the CSR to this file (default: print it)' },
    { name: 'key', type: 'string', description: 'private key to use, or where to create one' },
    STATE_DIR_OPTION,
  ],
  async run({ values, positionals }, io) {
    const str = (name: string): string | undefined => {
      const v = values[name];
      return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
    };
    const usage = (message: string): number => {
      io.err(`certificate_generate_csr: ${message}\n`);
      return EXIT.USAGE;
    };

    const cn = str('cn');
    if (!cn) return usage('--cn is required');
    if (cn.length > 64) return usage('--cn is longer than 64 characters (RFC 5280 upper bound)');
    const country = str('country');
    if (country !== undefined && !/^[A-Za-z]{2}$/.test(country))
      return usage('--country must be a two-letter code');

    let sans: SanEntry[];
    try {
      sans = sanList(cn, [str('san') ?? '', ...positionals].join(','));
    } catch (err) {
      return usage((err as Error).message);
    }
    if (sans.length === 0)
      return usage('no subject alternative name: give --san, or a --cn that is a host name');

    const subject: CsrSubject = {
      commonName: cn,
      ...optional('organization', str('org')),
      ...optional('organizationalUnit', str('ou')),
      ...optional('locality', str('locality')),
      ...optional('state', str('province')),
      ...optional('country', country?.toUpperCase()),
    };

    const settings = operatorSettings(io, str('state-dir'));
    const tlsKeyFile = settings.config?.TLS_KEY_FILE || settings.dotenv.TLS_KEY_FILE || undefined;
    let key: CsrKey;
    let pem: string;
    try {
      key = resolveCsrKey({
        paths: settings.paths,
        cwd: io.cwd,
        ...(str('key') ? { keyOption: str('key') } : {}),
        ...(tlsKeyFile ? { tlsKeyFile } : {}),
      });
      pem = createCsr({ privateKey: key.privateKey, subject, sans });
    } catch (err) {
      io.err(`certificate_generate_csr: ${(err as Error).message}\n`);
      return EXIT.FAILED;
    }

    const keyShown = shownPath(io.cwd, key.path);
    io.err(
      [
        `Private key: ${keyShown} (${key.source === 'reused' ? `reused: ${describeOrigin(key)}` : 'new key, mode 0600'})`,
        `Subject:     ${Object.entries(subject)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(', ')}`,
        `SANs:        ${sans.map((s) => `${s.type === 'dns' ? 'DNS' : 'IP'}:${s.value}`).join(', ')}`,
        '',
      ].join('\n'),
    );
    const out = str('out');
    if (out) {
      const target = resolve(io.cwd, out);
      // A CSR holds only public data: readable by others is fine.
      writeFileAtomic(target, pem, 0o644);
      io.out(`CSR written to ${shownPath(io.cwd, target)}\n`);
    } else {
      io.out(pem);
    }
    io.err(
      `Next: have the CA sign the request, then set TLS_CERT_FILE=<signed certificate>, TLS_KEY_FILE=${key.path}` +
        ' and TLS_CA_FILE=<chain> in .env and restart the server.\n',
    );
    return EXIT.OK;
  },
};

/** The CN first (when it is a host name), then the listed names, without duplicates. */
function sanList(cn: string, listed: string): SanEntry[] {
  const out: SanEntry[] = [];
  const seen = new Set<string>();
  const add = (s: SanEntry): void => {
    const k = `${s.type}:${s.value}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(s);
    }
  };
  try {
    add(parseSan(cn));
  } catch {
    // A descriptive CN ("UC MCP server") is allowed; it just is not a name clients can match.
  }
  for (const raw of listed.split(',')) if (raw.trim() !== '') add(parseSan(raw));
  return out;
}

function optional<K extends keyof CsrSubject>(k: K, v: CsrSubject[K] | undefined): Partial<CsrSubject> {
  return v === undefined ? {} : { [k]: v };
}

function describeOrigin(key: CsrKey): string {
  switch (key.origin) {
    case 'option':
      return 'the --key file';
    case 'TLS_KEY_FILE':
      return 'TLS_KEY_FILE';
    case 'csr-key':
      return 'the key of an earlier CSR';
    case 'self-signed':
      return "the server's own certificate key";
  }
}

function shownPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel.startsWith('..') ? path : rel;
}
