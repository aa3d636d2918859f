import { X509Certificate, createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { isIP } from 'node:net';
import type { Config } from '../config/schema.ts';
import { ConfigError, StartupError } from '../errors/index.ts';
import type { StatePaths } from '../paths.ts';
import {
  cannotIssue,
  caDays,
  createLocalCa,
  issueLeaf,
  issuedBy,
  parseLocalCa,
  type LocalCa,
} from './local-ca.ts';
import { completePendingPair, writePair } from './pair-files.ts';

const DAY = 86_400_000;

export interface TlsMaterial {
  /** The served chain: the leaf first, then (for the local CA) the CA certificate. */
  cert: string;
  key: string;
  ca?: string;
  /** Made and renewed by the server (issued by its local CA); false for the operator's pair. */
  managed: boolean;
  notBefore: Date;
  notAfter: Date;
  fingerprint256: string;
  /** What step 5 did: reused the existing pair, generated one, renewed one, or loaded the operator's. */
  source: 'reused' | 'generated' | 'renewed' | 'configured';
  /** The local CA behind a managed certificate, and whether this issue kept, created or replaced it. */
  localCa?: LocalCaInfo;
}

export interface LocalCaInfo {
  fingerprint256: string;
  notAfter: Date;
  event: 'kept' | 'created' | 'replaced';
  /** Why the previous CA could not issue the new certificate (event `replaced`). */
  reason?: string;
}

/** The names a managed certificate must cover: the listen host, loopback, the public URL, extras. */
export function certificateNames(config: Config): string[] {
  const names = new Set<string>(['localhost', '127.0.0.1', '::1', hostname()]);
  if (!['0.0.0.0', '::'].includes(config.SERVER_HOST)) names.add(config.SERVER_HOST);
  if (config.PUBLIC_BASE_URL) names.add(new URL(config.PUBLIC_BASE_URL).hostname.replace(/^\[|\]$/g, ''));
  for (const n of config.TLS_SAN) names.add(n);
  return [...names];
}

/** SAN entries of a certificate, as plain names/addresses. */
export function certificateSans(x509: X509Certificate): string[] {
  return (x509.subjectAltName ?? '')
    .split(/,\s*/)
    .map((s) => s.replace(/^(DNS|IP Address):/, '').trim())
    .filter(Boolean)
    .map((s) => (isIP(s) === 6 ? normaliseV6(s) : s));
}

function normaliseV6(a: string): string {
  return new URL(`http://[${a}]/`).hostname.replace(/^\[|\]$/g, '');
}

/** True when a managed certificate is past half its life or no longer covers the configured names. */
export function needsRenewal(material: TlsMaterial, names: string[], now = Date.now()): boolean {
  if (!material.managed) return false;
  const half =
    material.notBefore.getTime() + (material.notAfter.getTime() - material.notBefore.getTime()) / 2;
  if (now >= half) return true;
  const sans = new Set(certificateSans(new X509Certificate(material.cert)));
  return names.some((n) => !sans.has(isIP(n) === 6 ? normaliseV6(n) : n));
}

/**
 * Startup step 5. A configured (CA-signed) pair is loaded and checked, never replaced, and no local CA
 * is made. Otherwise the pair in secrets/ is reused while it is valid, covers the names, is not past
 * half its life and was issued by the local CA in secrets/; else a new one is issued by that CA (made
 * first when there is none: a first start, or an install from before the local CA, whose self-signed
 * certificate is replaced at once). An unreadable or mismatched pair or CA is a startup error, not a
 * silent replacement: an operator may have put it there, and users trust the CA.
 */
export function ensureTlsCertificate(config: Config, paths: StatePaths, now = Date.now()): TlsMaterial {
  if (config.TLS_CERT_FILE) return loadConfigured(config, now);
  completePendingPair(paths.caCert, paths.caKey);
  completePendingPair(paths.tlsCert, paths.tlsKey);
  const names = certificateNames(config);
  const ca = loadLocalCa(paths);
  if (existsSync(paths.tlsCert) || existsSync(paths.tlsKey)) {
    const existing = loadPair(paths.tlsCert, paths.tlsKey, true, 'reused');
    const current =
      ca !== undefined &&
      servesChainOf(existing.cert, ca) &&
      existing.notAfter.getTime() > now &&
      !needsRenewal(existing, names, now);
    if (current) return { ...existing, localCa: caInfo(ca, 'kept') };
    return issueServerCertificate(config, paths, names, 'renewed', now, ca);
  }
  return issueServerCertificate(config, paths, names, 'generated', now, ca);
}

/**
 * Issues and persists a new leaf from the local CA (also the renewal watchdog's step). The CA is kept
 * while it outlives the new leaf and its name constraints permit every name, so users trust it once;
 * otherwise a new CA is made, and users must trust the new secrets/ca_cert.pem (the caller says so).
 */
export function issueServerCertificate(
  config: Config,
  paths: StatePaths,
  names: string[],
  source: 'generated' | 'renewed',
  now = Date.now(),
  current = loadLocalCa(paths),
): TlsMaterial {
  const days = config.TLS_SELF_SIGNED_DAYS;
  const reason = current ? cannotIssue(current, names, now + days * DAY) : null;
  let ca = current;
  if (!ca || reason) {
    ca = createLocalCa(names, config.SERVER_NAME, caDays(days), now);
    // The CA is in place before a leaf it signed, so a crash in between leaves a leaf that the next
    // start sees is not the CA's and reissues.
    writePair(paths.caCert, paths.caKey, ca.certPem, ca.keyPem);
  }
  const leaf = issueLeaf(ca, names, days, config.SERVER_NAME, now);
  const chain = `${leaf.certPem}${ca.certPem}`;
  writePair(paths.tlsCert, paths.tlsKey, chain, leaf.keyPem);
  const event = !current ? 'created' : reason ? 'replaced' : 'kept';
  return { ...describe(chain, leaf.keyPem, true), source, localCa: caInfo(ca, event, reason ?? undefined) };
}

/** The CA in secrets/, or undefined when neither of its files exists. */
function loadLocalCa(paths: StatePaths): LocalCa | undefined {
  if (!existsSync(paths.caCert) && !existsSync(paths.caKey)) return undefined;
  try {
    return parseLocalCa(readFileSync(paths.caCert, 'utf8'), readFileSync(paths.caKey, 'utf8'));
  } catch (err) {
    throw new StartupError(
      `local CA in ${paths.caCert} and ${paths.caKey} unusable: ${(err as Error).message}; remove both ` +
        'to have a new CA made (clients must then trust the new ca_cert.pem)',
    );
  }
}

/** Whether a served chain is a leaf of `ca` followed by `ca` itself. */
function servesChainOf(chain: string, ca: LocalCa): boolean {
  const pems = chain.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (pems.length !== 2) return false;
  return (
    new X509Certificate(pems[1] as string).fingerprint256 === ca.x509.fingerprint256 && issuedBy(chain, ca)
  );
}

function caInfo(ca: LocalCa, event: LocalCaInfo['event'], reason?: string): LocalCaInfo {
  return {
    fingerprint256: ca.x509.fingerprint256,
    notAfter: new Date(ca.x509.validTo),
    event,
    ...(reason ? { reason } : {}),
  };
}

function loadConfigured(config: Config, now: number): TlsMaterial {
  for (const key of ['TLS_CERT_FILE', 'TLS_KEY_FILE', 'TLS_CA_FILE'] as const) {
    if (config[key] && !existsSync(config[key]))
      throw new ConfigError(`${key}: file not found: ${config[key]}`);
  }
  const material = loadPair(config.TLS_CERT_FILE, config.TLS_KEY_FILE, false, 'configured');
  if (config.TLS_CA_FILE) material.ca = readFileSync(config.TLS_CA_FILE, 'utf8');
  if (material.notAfter.getTime() <= now) {
    throw new ConfigError(`TLS_CERT_FILE: certificate expired on ${material.notAfter.toISOString()}`);
  }
  return material;
}

function loadPair(
  certPath: string,
  keyPath: string,
  managed: boolean,
  source: TlsMaterial['source'],
): TlsMaterial {
  let cert: string;
  let key: string;
  try {
    cert = readFileSync(certPath, 'utf8');
    key = readFileSync(keyPath, 'utf8');
  } catch (err) {
    throw new StartupError(`TLS certificate or key unreadable: ${(err as Error).message}`);
  }
  return { ...describe(cert, key, managed), source };
}

function describe(cert: string, key: string, managed: boolean): Omit<TlsMaterial, 'source'> {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (err) {
    throw new StartupError(`TLS certificate does not parse: ${(err as Error).message}`);
  }
  let keyObject;
  try {
    keyObject = createPrivateKey(key);
  } catch (err) {
    throw new StartupError(`TLS private key does not parse: ${(err as Error).message}`);
  }
  if (!x509.checkPrivateKey(keyObject))
    throw new StartupError('TLS private key does not match the certificate');
  return {
    cert,
    key,
    managed,
    notBefore: new Date(x509.validFrom),
    notAfter: new Date(x509.validTo),
    fingerprint256: x509.fingerprint256,
  };
}
