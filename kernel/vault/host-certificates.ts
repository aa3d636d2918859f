import { X509Certificate } from 'node:crypto';
import { BadRequestError, ConnectivityError, CredentialError } from '../errors/index.ts';
import { isProduct, normaliseHost, type Product } from './identity.ts';
import type { TrustAction } from './host-keys.ts';
import {
  CERT_FINGERPRINT_PATTERN,
  MAX_REJECTED_CERTIFICATES,
  type CertificateEntry,
  type KnownCertificatesFile,
} from './known-certificates-file.ts';
import { auditedDecision, decidedEntry, statusesOf } from './trust-entry.ts';
import type { VaultAudit, VaultLogger } from './vault-types.ts';

export type CertificateState = 'trusted' | 'pending' | 'rejected';
export type CertificateRefusal = 'unknown' | 'pending' | 'rejected' | 'changed';

/** What an operator compares out of band before trusting a certificate. Public facts, never secret. */
export interface CertificateFacts {
  /** SHA-256 of the DER, `AB:CD:...`. */
  fingerprint: string;
  subject: string;
  issuer: string;
  self_signed: boolean;
  not_before: string;
  not_after: string;
  subject_alt_names: string[];
}

/** The facts of a certificate, from its PEM or DER. */
export function certificateFacts(cert: X509Certificate): CertificateFacts {
  return {
    fingerprint: cert.fingerprint256,
    subject: oneLine(cert.subject),
    issuer: oneLine(cert.issuer),
    self_signed: isSelfSigned(cert),
    not_before: new Date(cert.validFrom).toISOString(),
    not_after: new Date(cert.validTo).toISOString(),
    subject_alt_names: (cert.subjectAltName ?? '')
      .split(', ')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  };
}

/**
 * Its own issuer, signed by its own key. Not `checkIssued`, which also wants keyCertSign: a self-signed
 * server certificate without it is still a trust anchor TLS accepts when pinned.
 */
function isSelfSigned(cert: X509Certificate): boolean {
  try {
    return cert.subject === cert.issuer && cert.verify(cert.publicKey);
  } catch {
    return false;
  }
}

/** `C=US, ST=NC, CN=...`: X509Certificate gives one attribute a line. */
function oneLine(dn: string): string {
  return dn.split('\n').filter(Boolean).join(', ');
}

/** The ConnectivityError of a certificate awaiting (or refused by) a trust decision; `details` shows it. */
export class CertificateTrustError extends ConnectivityError {
  constructor(
    message: string,
    readonly reason: CertificateRefusal,
    readonly product: Product,
    readonly host: string,
    readonly presented: CertificateFacts,
    readonly expected?: string,
  ) {
    super(message);
    this.details = {
      certificate_trust: reason,
      host,
      presented,
      ...(expected ? { pinned_fingerprint: expected } : {}),
      next_step: `${product}_trust_certificate with host ${host}, this fingerprint and action "trust" or "reject"`,
    };
  }
}

export interface CertificateStatus {
  product: Product;
  host: string;
  state: CertificateState;
  /** The pinned certificate's fingerprint when trusted, else the one awaiting a decision, else the last rejected. */
  fingerprint: string;
  /** A presented certificate that differs from the pinned one and awaits a decision. */
  pendingFingerprint?: string;
  /** The facts of the certificate `fingerprint` names (absent for a rejected one no longer kept). */
  certificate?: CertificateFacts;
}

/**
 * HTTPS certificate trust on first use for one client, as ClientHostKeys is for SSH host keys. It
 * applies only where a credential pins nothing (neither ca_cert_pem nor cert_pem) and the system CAs
 * do not verify the node: the certificate presented is recorded as pending and the call refused
 * before any request is sent; `<product>_trust_certificate` pins or rejects it; a pinned certificate
 * that changes is refused naming both fingerprints. Synchronous, state read from disk each time.
 */
export class ClientCertificates {
  readonly #file: KnownCertificatesFile;
  readonly #audit: VaultAudit;
  readonly #log: VaultLogger;

  constructor(
    readonly client: string,
    file: KnownCertificatesFile,
    audit: VaultAudit,
    log: VaultLogger,
  ) {
    this.#file = file;
    this.#audit = audit;
    this.#log = log;
  }

  /** The certificate this client trusted for the host: what TLS verification pins, as a cert_pem. */
  pinned(product: Product, host: string): { pem: string; fingerprint: string } | undefined {
    const pinned = this.#file.read().hosts[slotOf(checkProduct(product), certHost(host))]?.pinned;
    return pinned ? { pem: pinned.pem, fingerprint: pinned.fingerprint } : undefined;
  }

  /**
   * The refusal of a certificate the TLS handshake did not accept, once recorded (pending); undefined
   * when it is the pinned one itself (refused for another reason: expired, say), left to the caller.
   */
  refuse(product: Product, host: string, presentedPem: string): CertificateTrustError | undefined {
    const p = checkProduct(product);
    const h = certHost(host);
    const cert = new X509Certificate(presentedPem);
    const facts = certificateFacts(cert);
    const fp = facts.fingerprint;
    const known = this.#file.read();
    const slot = slotOf(p, h);
    const entry: CertificateEntry = known.hosts[slot] ?? { rejected: [] };
    const tool = `${p}_trust_certificate`;
    const where = `${p} host ${h}`;
    const shown = describe(facts);
    if (entry.pinned?.fingerprint === fp) return undefined;

    if (entry.rejected.some((r) => r.fingerprint === fp)) {
      return new CertificateTrustError(
        `the HTTPS certificate ${shown} of ${where} was rejected; the connection was refused and nothing was sent. ` +
          `To reverse the decision, call ${tool} with action "trust" and fingerprint ${fp}.`,
        'rejected',
        p,
        h,
        facts,
      );
    }
    const previous = entry.pending?.fingerprint;
    if (previous !== fp) {
      entry.pending = { fingerprint: fp, pem: cert.toString(), at: new Date().toISOString() };
      this.#save(slot, entry);
    }
    const decide = `call ${tool} with action "trust" or "reject" and fingerprint ${fp}`;
    const caNote = facts.self_signed
      ? ''
      : ` It is not self-signed: a certificate issued by a CA is verified through that CA, so rather store the issuer (${facts.issuer}) as the credential's ca_cert_pem.`;
    if (entry.pinned) {
      this.#log.warn(
        { client: this.client, product: p, host: h, expected: entry.pinned.fingerprint, presented: fp },
        'HTTPS certificate changed: connection refused',
      );
      return new CertificateTrustError(
        `the HTTPS certificate of ${where} has CHANGED: pinned SHA-256 ${entry.pinned.fingerprint}, presented ${shown}. ` +
          'This may be a man-in-the-middle attack, or the certificate was regenerated; nothing was sent to the host. ' +
          `If the change is legitimate and verified on the node (show cert own tomcat), ${decide}.${caNote}`,
        'changed',
        p,
        h,
        facts,
        entry.pinned.fingerprint,
      );
    }
    if (previous === undefined) {
      this.#log.info(
        { client: this.client, product: p, host: h, fingerprint: fp },
        'HTTPS certificate first seen',
      );
    }
    const intro =
      previous === undefined
        ? entry.rejected.length > 0
          ? `new HTTPS certificate for ${where} (earlier ones were rejected)`
          : `first HTTPS connection to ${where}`
        : `the HTTPS certificate of ${where} still awaits a trust decision`;
    return new CertificateTrustError(
      `${intro}: it presents ${shown}, which neither the credential (ca_cert_pem, cert_pem) nor the system CAs trust, ` +
        'so the connection was refused before anything was sent. ' +
        `Compare the fingerprint with the node's own (show cert own tomcat, or the certificate in OS Administration), then ${decide}.${caNote}`,
      previous === undefined ? 'unknown' : 'pending',
      p,
      h,
      facts,
    );
  }

  /**
   * Trusts (pins) or rejects a certificate. The fingerprint must be one the host presented (pending,
   * pinned or rejected): a certificate never seen cannot be trusted, and one that changed since the
   * admin looked is not trusted by mistake. Audited (TRUSTED) before it is saved.
   */
  decide(product: Product, host: string, action: TrustAction, fingerprint: string): CertificateStatus {
    const p = checkProduct(product);
    const requested = action === 'trust' || action === 'reject' ? action : '(invalid)';
    let h: string;
    try {
      h = certHost(host);
    } catch (err) {
      this.#refused(p, '(invalid)', requested, undefined, 'invalid');
      throw err;
    }
    const fp = normaliseCertFingerprint(fingerprint);
    const refuse = (reason: string, message: string): never => {
      this.#refused(p, h, requested, fp ?? '(invalid)', reason);
      throw new BadRequestError(message);
    };
    if (requested === '(invalid)') return refuse('invalid', 'action must be "trust" or "reject"');
    if (!fp)
      return refuse(
        'invalid',
        'the fingerprint must be the SHA-256 one in AB:CD:... form (32 hex pairs), as the refusal showed it',
      );

    const known = this.#file.read();
    const slot = slotOf(p, h);
    const entry = known.hosts[slot];
    if (!entry) {
      return refuse(
        'unknown_host',
        `no HTTPS certificate has been seen for ${p} host ${h}; call a tool on it first (e.g. ${p}_check_connectivity), then decide`,
      );
    }
    const seen = [entry.pinned, entry.pending, ...entry.rejected].find((c) => c?.fingerprint === fp);
    if (!seen) {
      const presented = entry.pending?.fingerprint ?? entry.pinned?.fingerprint;
      return refuse(
        'fingerprint_mismatch',
        `${fp} is not a certificate ${p} host ${h} presented${presented ? ` (it presented ${presented})` : ''}; nothing was decided`,
      );
    }
    const pem = 'pem' in seen ? seen.pem : undefined;
    if (action === 'trust') {
      if (!pem) {
        return refuse(
          'not_kept',
          `the certificate ${fp} of ${p} host ${h} is no longer kept; connect again so it is presented, then decide`,
        );
      }
      const facts = certificateFacts(new X509Certificate(pem));
      if (!facts.self_signed) {
        return refuse(
          'not_self_signed',
          `the certificate ${fp} of ${p} host ${h} is issued by ${facts.issuer}, not self-signed: TLS verifies it through its issuer, so store that CA as the credential's ca_cert_pem instead; nothing was decided`,
        );
      }
      if (Date.parse(facts.not_after) <= Date.now() || Date.parse(facts.not_before) > Date.now()) {
        return refuse(
          'not_valid_now',
          `the certificate ${fp} of ${p} host ${h} is valid only from ${facts.not_before} to ${facts.not_after}: TLS would refuse it even pinned; regenerate it on the node; nothing was decided`,
        );
      }
    }

    const now = new Date().toISOString();
    const next = decidedEntry(
      entry,
      fp,
      action,
      { fingerprint: fp, pem: pem as string, at: now },
      { fingerprint: fp, ...(pem ? { pem } : {}), at: now },
      MAX_REJECTED_CERTIFICATES,
    );
    const auditAction = action === 'trust' ? 'trusted' : 'rejected';
    auditedDecision(
      this.#audit,
      { client: this.client, product: p, host: h, kind: 'https_certificate' },
      action,
      fp,
      () => this.#save(slot, next),
    );
    this.#log.info(
      { client: this.client, product: p, host: h, action: auditAction, fingerprint: fp },
      'HTTPS certificate decided',
    );
    return status(p, h, next);
  }

  /** Trust state of every host this client has met a certificate on (or one product's). */
  list(product?: Product): CertificateStatus[] {
    const only = product === undefined ? undefined : checkProduct(product);
    return statusesOf(this.#file.read().hosts, only, status);
  }

  #refused(p: Product, h: string, requested: string, fp: string | undefined, reason: string): void {
    this.#audit.write({
      event: 'TRUSTED',
      status: 'REFUSED',
      client: this.client,
      product: p,
      host: h,
      kind: 'https_certificate',
      requested,
      ...(fp ? { fingerprint: fp } : {}),
      reason,
    });
  }

  #save(slot: string, entry: CertificateEntry): void {
    try {
      this.#file.put(slot, entry);
    } catch (err) {
      throw new ConnectivityError(
        'the trusted-certificate store could not be written; the connection or decision was refused',
        { cause: err },
      );
    }
  }
}

/** Accepts a fingerprint as copied: lower case, spaces or no colons are forgiven. */
export function normaliseCertFingerprint(input: unknown): string | undefined {
  if (typeof input !== 'string') return undefined;
  const hex = input
    .trim()
    .replace(/^SHA-?256[:=\s]*/i, '')
    .replace(/[:\s]/g, '')
    .toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(hex)) return undefined;
  const fp = hex.match(/../g)?.join(':') ?? '';
  return CERT_FINGERPRINT_PATTERN.test(fp) ? fp : undefined;
}

/** The credential's host, as the vault keys it (`name[:port]`, lower case). */
function certHost(host: string): string {
  try {
    return normaliseHost(host);
  } catch (err) {
    throw new BadRequestError(err instanceof CredentialError ? err.message : 'invalid host');
  }
}

function checkProduct(product: unknown): Product {
  if (!isProduct(product)) throw new BadRequestError('unknown product: expected cucm, imp or cuc');
  return product;
}

function slotOf(p: Product, h: string): string {
  return `${p}/${h}`;
}

function describe(f: CertificateFacts): string {
  const cn = /CN=([^,]+)/.exec(f.subject)?.[1] ?? f.subject;
  const by = f.self_signed ? 'self-signed' : `issued by ${f.issuer}`;
  return `SHA-256 ${f.fingerprint} (${cn}, ${by}, valid ${f.not_before} to ${f.not_after}${f.subject_alt_names.length ? `, SAN ${f.subject_alt_names.join(', ')}` : ''})`;
}

function status(product: Product, host: string, e: CertificateEntry): CertificateStatus {
  const factsOf = (pem: string | undefined): { certificate?: CertificateFacts } =>
    pem ? { certificate: certificateFacts(new X509Certificate(pem)) } : {};
  if (e.pinned) {
    return {
      product,
      host,
      state: 'trusted',
      fingerprint: e.pinned.fingerprint,
      ...(e.pending ? { pendingFingerprint: e.pending.fingerprint } : {}),
      ...factsOf(e.pinned.pem),
    };
  }
  if (e.pending)
    return { product, host, state: 'pending', fingerprint: e.pending.fingerprint, ...factsOf(e.pending.pem) };
  const last = e.rejected[e.rejected.length - 1];
  return { product, host, state: 'rejected', fingerprint: last?.fingerprint ?? '', ...factsOf(last?.pem) };
}
