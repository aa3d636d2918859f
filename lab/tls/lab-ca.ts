import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import forge from 'node-forge';
import { createStateFileOnce, readStateFile } from './files.ts';

export interface LabCa {
  certPem: string;
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
}

const CA_NAME = 'UC MCP Lab CA';

export function newRsaKeyPem(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
}

export function randomSerial(): string {
  const serial = randomBytes(16);
  // A positive serial: DER integers are signed.
  serial[0] = (serial[0] as number) & 0x7f;
  return serial.toString('hex');
}

/**
 * A certificate for `key` with a random serial, valid from five minutes ago for `validDays`: the caller
 * sets its subject, issuer and extensions, and signs it.
 */
export function newCertificate(key: forge.pki.rsa.PrivateKey, validDays: number): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = randomSerial();
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 5 * 60_000);
  cert.validity.notAfter = new Date(now + validDays * 86_400_000);
  return cert;
}

/** subjectAltName entries: IP addresses as such, anything else as a DNS name. */
export function altNames(names: string[]): { type: number; ip?: string; value?: string }[] {
  return names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n }));
}

function parse(pem: string): LabCa | undefined {
  try {
    const certPem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\r?\n?/.exec(pem)?.[0];
    const keyPem = /-----BEGIN RSA PRIVATE KEY-----[\s\S]+?-----END RSA PRIVATE KEY-----\r?\n?/.exec(
      pem,
    )?.[0];
    if (!certPem || !keyPem) return undefined;
    const cert = forge.pki.certificateFromPem(certPem);
    const key = forge.pki.privateKeyFromPem(keyPem);
    if (!(cert.publicKey as forge.pki.rsa.PublicKey).n.equals(key.n)) return undefined;
    if (cert.validity.notAfter.getTime() < Date.now() + 365 * 86_400_000) return undefined;
    return { certPem, cert, key };
  } catch {
    return undefined;
  }
}

function issue(): string {
  const keyPem = newRsaKeyPem();
  const key = forge.pki.privateKeyFromPem(keyPem);
  const cert = newCertificate(key, 3650);
  const subject = [
    { name: 'commonName', value: CA_NAME },
    { name: 'organizationName', value: 'uc-mcp-server lab' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert) + keyPem;
}

/**
 * The lab CA (certificate and key in one file, `stateDir/tls/ca.pem`), created on first use and valid ten
 * years. Node certificates signed by an earlier CA are reissued when they are next loaded.
 */
export function loadOrCreateCa(stateDir: string): LabCa {
  const path = join(stateDir, 'tls', 'ca.pem');
  const existing = readStateFile(path);
  const ca = existing === undefined ? undefined : parse(existing);
  if (ca) return ca;
  // Unreadable or about to expire: replace it (the one case where a concurrent lab may see a different CA).
  if (existing !== undefined) rmSync(path, { force: true });
  const created = parse(createStateFileOnce(path, issue()));
  if (!created) throw new Error(`the lab CA in ${path} is unusable`);
  return created;
}
