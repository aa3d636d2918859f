import { CredentialError, SSHError } from '../errors/index.ts';
import { isProduct, normaliseHost, type Product } from './identity.ts';
import { normaliseFingerprint } from './fingerprint.ts';
import { MAX_REJECTED_PER_HOST, type HostEntry, type KnownHostsFile } from './known-hosts-file.ts';
import { auditedDecision, decidedEntry, statusesOf } from './trust-entry.ts';
import type { VaultAudit, VaultLogger } from './vault-types.ts';

export type HostKeyState = 'trusted' | 'pending' | 'rejected';
export type TrustAction = 'trust' | 'reject';
export type HostKeyRefusal = 'unknown' | 'pending' | 'rejected' | 'changed';

/** The SSHError a refused host key raises; the fields let a tool answer in structured form. */
export class HostKeyError extends SSHError {
  constructor(
    message: string,
    readonly reason: HostKeyRefusal,
    readonly product: Product,
    readonly host: string,
    readonly presented: string,
    readonly expected?: string,
  ) {
    super(message);
  }
}

export interface HostKeyStatus {
  product: Product;
  host: string;
  state: HostKeyState;
  /** The pinned key when trusted, else the key awaiting a decision, else the last rejected one. */
  fingerprint: string;
  /** A presented key that differs from the pinned one and awaits a decision. */
  pendingFingerprint?: string;
}

/**
 * SSH host-key trust on first use for one client. The first key a node presents is recorded as
 * pending and the connection is refused; a `<product>_os_trust_fingerprint` decision pins or rejects
 * it; a pinned key that changes refuses the connection and shows both fingerprints. Every check and
 * decision is synchronous (state is read from disk each time), so a decision and a connection
 * attempt cannot interleave.
 */
export class ClientHostKeys {
  readonly #file: KnownHostsFile;
  readonly #audit: VaultAudit;
  readonly #log: VaultLogger;

  constructor(
    readonly client: string,
    file: KnownHostsFile,
    audit: VaultAudit,
    log: VaultLogger,
  ) {
    this.#file = file;
    this.#audit = audit;
    this.#log = log;
  }

  /** Returns 'trusted' or throws HostKeyError (an SSHError); nothing may be sent to the host otherwise. */
  checkHostKey(product: Product, host: string, fingerprint: string, keyType?: string): 'trusted' {
    const p = sshProduct(product);
    const h = sshHost(host);
    const fp = normaliseFingerprint(fingerprint);
    if (!fp) throw new SSHError('the presented host key fingerprint is not in SHA256:<base64> form');
    const known = this.#file.read();
    const slot = `${p}/${h}`;
    const entry: HostEntry = known.hosts[slot] ?? { rejected: [] };
    const tool = `${p}_os_trust_fingerprint`;
    const where = `${p} host ${h}`;

    if (entry.rejected.some((r) => r.fingerprint === fp)) {
      throw new HostKeyError(
        `the SSH host key ${fp} of ${where} was rejected; the connection was refused and nothing was sent. ` +
          `To reverse the decision, call ${tool} with action "trust" and this fingerprint.`,
        'rejected',
        p,
        h,
        fp,
      );
    }
    if (entry.pinned?.fingerprint === fp) return 'trusted';

    const previous = entry.pending?.fingerprint;
    const now = new Date().toISOString();
    entry.pending = { fingerprint: fp, ...(keyType ? { keyType } : {}), at: now };
    if (previous !== fp) this.#save(slot, entry);

    const decide = `call ${tool} with action "trust" or "reject" and fingerprint ${fp}`;
    if (entry.pinned) {
      this.#log.warn(
        { client: this.client, product: p, host: h, expected: entry.pinned.fingerprint, presented: fp },
        'SSH host key changed: connection refused',
      );
      throw new HostKeyError(
        `the SSH host key of ${where} has CHANGED: expected ${entry.pinned.fingerprint}, presented ${fp}. ` +
          'This may be a man-in-the-middle attack, or the node was rebuilt; nothing was sent to the host. ' +
          `If the change is legitimate and verified out of band, ${decide}.`,
        'changed',
        p,
        h,
        fp,
        entry.pinned.fingerprint,
      );
    }
    if (previous === undefined) {
      this.#log.info(
        { client: this.client, product: p, host: h, fingerprint: fp },
        'SSH host key first seen',
      );
      const intro =
        entry.rejected.length > 0
          ? `new SSH host key for ${where} (earlier keys were rejected)`
          : `first SSH connection to ${where}`;
      throw new HostKeyError(
        `${intro}: its host key ${fp}${keyType ? ` (${keyType})` : ''} is not trusted yet, ` +
          `so the connection was refused before authentication and nothing was sent. ` +
          `Compare the fingerprint with the node's own key out of band, then ${decide}.`,
        'unknown',
        p,
        h,
        fp,
      );
    }
    const changed = previous !== fp ? ` (a different key than the ${previous} presented before)` : '';
    throw new HostKeyError(
      `the SSH host key ${fp} of ${where}${changed} awaits a trust decision; nothing was sent. ` +
        `Verify it out of band, then ${decide}.`,
      'pending',
      p,
      h,
      fp,
    );
  }

  /**
   * Trusts (pins) or rejects a key. The fingerprint must be one the host actually presented (the
   * pending one, the pinned one, or a rejected one): a key never seen cannot be trusted, and a key
   * that changed since the admin looked is not trusted by mistake. Audited before it is saved.
   */
  decide(product: Product, host: string, action: TrustAction, fingerprint: string): HostKeyStatus {
    const p = sshProduct(product);
    // What was asked, never what was done: a refused request has no `action` field, so no reader (or
    // SIEM rule keyed on action=trusted) can take it for a decision.
    const requested = action === 'trust' || action === 'reject' ? action : '(invalid)';
    let h: string;
    try {
      h = sshHost(host);
    } catch (err) {
      this.#audit.write({
        event: 'TRUSTED',
        status: 'REFUSED',
        client: this.client,
        product: p,
        host: '(invalid)',
        requested,
        reason: 'invalid',
      });
      throw err;
    }
    const fp = normaliseFingerprint(fingerprint);
    const refuse = (reason: string, message: string): never => {
      this.#audit.write({
        event: 'TRUSTED',
        status: 'REFUSED',
        client: this.client,
        product: p,
        host: h,
        requested,
        fingerprint: fp ?? '(invalid)',
        reason,
      });
      throw new SSHError(message);
    };
    if (requested === '(invalid)') refuse('invalid', 'action must be "trust" or "reject"');
    const auditAction = action === 'trust' ? 'trusted' : 'rejected';
    if (!fp)
      return refuse('invalid', 'the fingerprint must be in SHA256:<base64> form, as shown by the refusal');

    const known = this.#file.read();
    const slot = `${p}/${h}`;
    const entry = known.hosts[slot];
    if (!entry) {
      return refuse(
        'unknown_host',
        `no SSH host key has been seen for ${p} host ${h}; connect to it first (e.g. a connectivity check), then decide`,
      );
    }
    const seen = [
      entry.pinned?.fingerprint,
      entry.pending?.fingerprint,
      ...entry.rejected.map((r) => r.fingerprint),
    ];
    if (!seen.includes(fp)) {
      const presented = entry.pending?.fingerprint ?? entry.pinned?.fingerprint;
      return refuse(
        'fingerprint_mismatch',
        `${fp} is not a key ${p} host ${h} presented${presented ? ` (it presented ${presented})` : ''}; nothing was decided`,
      );
    }

    const now = new Date().toISOString();
    const keyType = [entry.pending, entry.pinned].find((k) => k?.fingerprint === fp)?.keyType;
    const next = decidedEntry(
      entry,
      fp,
      action,
      { fingerprint: fp, ...(keyType ? { keyType } : {}), at: now },
      { fingerprint: fp, at: now },
      MAX_REJECTED_PER_HOST,
    );

    auditedDecision(this.#audit, { client: this.client, product: p, host: h }, action, fp, () =>
      this.#save(slot, next),
    );
    this.#log.info(
      { client: this.client, product: p, host: h, action: auditAction, fingerprint: fp },
      'SSH host key decided',
    );
    return status(p, h, next);
  }

  /**
   * Pins a key an operator verified out of band (on the node's console) without a first connection:
   * it is recorded as presented, then trusted, with the same TRUSTED audit as a `decide`. Nothing
   * changes when exactly that key is already pinned. For operator scripts (a client whose profile may
   * not decide, the demo), never for tools.
   */
  pinVerified(product: Product, host: string, fingerprint: string): HostKeyStatus {
    const h = sshHost(host);
    const known = this.list(product).find((x) => x.host === h);
    if (known?.state === 'trusted' && known.fingerprint === normaliseFingerprint(fingerprint)) return known;
    try {
      this.checkHostKey(product, host, fingerprint);
    } catch (err) {
      if (!(err instanceof HostKeyError)) throw err;
    }
    return this.decide(product, host, 'trust', fingerprint);
  }

  /** Trust state of every host this client has connected to (or one product's). */
  list(product?: Product): HostKeyStatus[] {
    const only = product === undefined ? undefined : sshProduct(product);
    return statusesOf(this.#file.read().hosts, only, status);
  }

  #save(slot: string, entry: HostEntry): void {
    try {
      this.#file.put(slot, entry);
    } catch (err) {
      throw new SSHError(
        'the SSH known-hosts store could not be written; the connection or decision was refused',
        {
          cause: err,
        },
      );
    }
  }
}

/** An SSH host: `name[:port]`, with the default port 22 folded away so `cucm1` and `cucm1:22` are one key. */
export function sshHost(host: string): string {
  let h: string;
  try {
    h = normaliseHost(host);
  } catch (err) {
    throw new SSHError(err instanceof CredentialError ? err.message : 'invalid host');
  }
  return h.endsWith(':22') ? h.slice(0, -3) : h;
}

function sshProduct(product: unknown): Product {
  if (!isProduct(product)) throw new SSHError('unknown product: expected cucm, imp or cuc');
  return product;
}

function status(product: Product, host: string, e: HostEntry): HostKeyStatus {
  const lastRejected = e.rejected[e.rejected.length - 1]?.fingerprint;
  if (e.pinned) {
    return {
      product,
      host,
      state: 'trusted',
      fingerprint: e.pinned.fingerprint,
      ...(e.pending ? { pendingFingerprint: e.pending.fingerprint } : {}),
    };
  }
  if (e.pending) return { product, host, state: 'pending', fingerprint: e.pending.fingerprint };
  return { product, host, state: 'rejected', fingerprint: lastRejected ?? '' };
}
