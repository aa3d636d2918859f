import { X509Certificate, createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import { isIP } from 'node:net';
import type { Config } from '../config/schema.ts';
import { ConfigError, StartupError } from '../errors/index.ts';
import type { StatePaths } from '../paths.ts';
import { fsyncDir, writeFileAtomic } from '../store/atomic-file.ts';
import { generateSelfSigned } from './self-signed.ts';

export interface TlsMaterial {
  cert: string;
  key: string;
  ca?: string;
  selfSigned: boolean;
  notBefore: Date;
  notAfter: Date;
  fingerprint256: string;
  /** What step 5 did: reused the existing pair, generated one, renewed one, or loaded the operator's. */
  source: 'reused' | 'generated' | 'renewed' | 'configured';
}

/** The names a self-signed certificate must cover: the listen host, loopback, the public URL, extras. */
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

/** True when a self-signed certificate is past half its life or no longer covers the configured names. */
export function needsRenewal(material: TlsMaterial, names: string[], now = Date.now()): boolean {
  if (!material.selfSigned) return false;
  const half =
    material.notBefore.getTime() + (material.notAfter.getTime() - material.notBefore.getTime()) / 2;
  if (now >= half) return true;
  const sans = new Set(certificateSans(new X509Certificate(material.cert)));
  return names.some((n) => !sans.has(isIP(n) === 6 ? normaliseV6(n) : n));
}

/**
 * Startup step 5. A configured (CA-signed) pair is loaded and checked, never replaced. Otherwise the
 * self-signed pair in secrets/ is reused while it is valid, covers the names and is not past half its
 * life; else a new one is generated. An unreadable or mismatched pair is a startup error, not a silent
 * replacement, because an operator may have put it there.
 */
export function ensureTlsCertificate(config: Config, paths: StatePaths, now = Date.now()): TlsMaterial {
  if (config.TLS_CERT_FILE) return loadConfigured(config, now);
  completePendingPair(paths);
  const names = certificateNames(config);
  if (existsSync(paths.tlsCert) || existsSync(paths.tlsKey)) {
    const existing = loadPair(paths.tlsCert, paths.tlsKey, true, 'reused');
    if (existing.notAfter.getTime() > now && !needsRenewal(existing, names, now)) return existing;
    return generate(config, paths, names, 'renewed');
  }
  return generate(config, paths, names, 'generated');
}

/** Generates and persists a new self-signed pair (also used by the renewal watchdog). */
export function generate(
  config: Config,
  paths: StatePaths,
  names: string[],
  source: 'generated' | 'renewed',
): TlsMaterial {
  const pair = generateSelfSigned(names, config.TLS_SELF_SIGNED_DAYS, config.SERVER_NAME);
  // Two files cannot be replaced in one step: both are staged as `.next` first, then renamed into
  // place, so a crash leaves either the old pair (staging incomplete: dropped at the next start) or a
  // staged pair that the next start finishes moving in. Never a key beside another key's certificate.
  writeFileAtomic(staged(paths.tlsKey), pair.keyPem, 0o600);
  writeFileAtomic(staged(paths.tlsCert), pair.certPem, 0o644);
  completePendingPair(paths);
  return { ...describe(pair.certPem, pair.keyPem, true), source };
}

const staged = (path: string): string => `${path}.next`;

/**
 * Finishes or drops a pair write a crash interrupted. The certificate is staged after the key and moved
 * in after it, so a staged certificate means the whole pair was staged (the key may already be in place).
 */
function completePendingPair(paths: StatePaths): void {
  const key = staged(paths.tlsKey);
  const cert = staged(paths.tlsCert);
  if (existsSync(cert)) {
    if (existsSync(key)) renameSync(key, paths.tlsKey);
    renameSync(cert, paths.tlsCert);
    fsyncDir(dirname(paths.tlsCert));
  } else if (existsSync(key)) {
    rmSync(key, { force: true });
  }
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
  selfSigned: boolean,
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
  return { ...describe(cert, key, selfSigned), source };
}

function describe(cert: string, key: string, selfSigned: boolean): Omit<TlsMaterial, 'source'> {
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
    selfSigned,
    notBefore: new Date(x509.validFrom),
    notAfter: new Date(x509.validTo),
    fingerprint256: x509.fingerprint256,
  };
}
