import { AuditUnavailableError, CredentialError } from '../errors/index.ts';
import { currentNodeRequests } from '../sdk/node-requests.ts';
import { withFileLock } from '../store/file-lock.ts';
import { ClientCertificates } from './host-certificates.ts';
import { ClientHostKeys } from './host-keys.ts';
import {
  checkKind,
  checkProduct,
  isProduct,
  normaliseHost,
  parseSlotKey,
  slotKey,
  type CredentialKind,
  type Product,
  type RecordIdentity,
} from './identity.ts';
import { keyCheckMatches, keyCheckValue, newSalt, type KeyCache } from './key-derivation.ts';
import { checkSecret, openRecord, sealRecord, type CredentialSecret } from './sealed-record.ts';
import type { KnownCertificatesFile } from './known-certificates-file.ts';
import type { KnownHostsFile } from './known-hosts-file.ts';
import { newVaultDoc, type VaultDoc, type VaultFile } from './vault-file.ts';
import type { VaultAudit, VaultLogger } from './vault-types.ts';

export type CredentialOperation = 'store' | 'update' | 'delete';

/** What listing shows: where credentials exist, never what they are. */
export interface CredentialEntry {
  product: Product;
  kind: CredentialKind;
  host: string;
  updatedAt: string;
  /** Writes forbidden with this credential: only reads are sent (docs/vault.md, Read-only credentials). */
  read_only: boolean;
}

/** Per-client state shared by every view of that client within one Vault. */
export interface ClientSlot {
  file: VaultFile;
  knownHosts: KnownHostsFile;
  knownCertificates: KnownCertificatesFile;
  /** Serialises store/update/delete: each reads the file the previous one wrote. */
  queue: Promise<unknown>;
  /** Salt for a file not written yet, kept so a refused first store does not cost a second derivation. */
  freshSalt?: Buffer;
  /** `salt|keyCheck` already verified against the derived key. */
  verified?: string;
}

/**
 * One client's view of the vault. It holds the client name and nothing else to choose by, so it can
 * only ever reach clients/<client>/vault/. Returned secrets are decrypted on each call; only the
 * derived key and the parsed (still sealed) file are kept in memory.
 */
export class ClientVault {
  // ES private fields: a tool holding this view cannot reach the key cache (and with it other
  // clients' keys) even by ignoring TypeScript's `private`.
  readonly #slot: ClientSlot;
  readonly #keys: KeyCache;
  readonly #audit: VaultAudit;
  readonly #log: VaultLogger;
  readonly #hostKeys: ClientHostKeys;
  readonly #certificates: ClientCertificates;

  constructor(
    readonly client: string,
    slot: ClientSlot,
    keys: KeyCache,
    audit: VaultAudit,
    log: VaultLogger,
  ) {
    this.#slot = slot;
    this.#keys = keys;
    this.#audit = audit;
    this.#log = log;
    this.#hostKeys = new ClientHostKeys(client, slot.knownHosts, audit, log);
    this.#certificates = new ClientCertificates(client, slot.knownCertificates, audit, log);
  }

  /** SSH host-key trust on first use for this client. */
  get hostKeys(): ClientHostKeys {
    return this.#hostKeys;
  }

  /** HTTPS certificate trust on first use for this client (nodes whose credential pins nothing). */
  get certificates(): ClientCertificates {
    return this.#certificates;
  }

  /** Adds credentials; CredentialError if this product/kind/host already has some (use update). */
  async store(
    product: Product,
    kind: CredentialKind,
    host: string,
    secret: CredentialSecret,
  ): Promise<CredentialEntry> {
    return (await this.#mutate('store', product, kind, host, secret)) as CredentialEntry;
  }

  /** Replaces existing credentials; CredentialError if there are none. */
  async update(
    product: Product,
    kind: CredentialKind,
    host: string,
    secret: CredentialSecret,
  ): Promise<CredentialEntry> {
    return (await this.#mutate('update', product, kind, host, secret)) as CredentialEntry;
  }

  /** Removes credentials; CredentialError if there are none. */
  async delete(product: Product, kind: CredentialKind, host: string): Promise<void> {
    await this.#mutate('delete', product, kind, host, undefined);
  }

  /** Decrypts one credential; CredentialError when absent or when it does not open (tampering, wrong key). */
  async get(product: Product, kind: CredentialKind, host: string): Promise<CredentialSecret> {
    const id = this.#identity(product, kind, host);
    const doc = this.#slot.file.read();
    const sealed = doc?.records[slotKey(id.product, id.kind, id.host)];
    if (!doc || !sealed) throw notFound(id);
    try {
      const secret = openRecord(await this.#keyFor(doc), id, sealed);
      // Every node client opens its credential here on each call, so the call learns of the attribute
      // before its first request leaves, whichever tool or transport makes it.
      if (secret.read_only === true)
        currentNodeRequests().readOnlyCredential?.(`${id.product} ${id.kind} credential of ${id.host}`);
      return secret;
    } catch (err) {
      this.#log.error(
        { client: id.client, product: id.product, kind: id.kind, host: id.host },
        'credential did not open',
      );
      throw err;
    }
  }

  /** Hosts and kinds this client has credentials for, optionally for one product; no secret. */
  async list(product?: Product): Promise<CredentialEntry[]> {
    const only = product === undefined ? undefined : checkProduct(product);
    const doc = this.#slot.file.read();
    const out: CredentialEntry[] = [];
    for (const [key, rec] of Object.entries(doc?.records ?? {})) {
      const s = parseSlotKey(key);
      if (s && (only === undefined || s.product === only))
        out.push({ ...s, updatedAt: rec.updatedAt, read_only: rec.readOnly === true });
    }
    return out.sort((a, b) =>
      slotKey(a.product, a.kind, a.host).localeCompare(slotKey(b.product, b.kind, b.host)),
    );
  }

  #identity(product: unknown, kind: unknown, host: unknown): RecordIdentity {
    const p = checkProduct(product);
    return { client: this.client, product: p, kind: checkKind(p, kind), host: normaliseHost(host) };
  }

  #mutate(
    op: CredentialOperation,
    product: unknown,
    kind: unknown,
    host: unknown,
    secret: unknown,
  ): Promise<CredentialEntry | undefined> {
    let id: RecordIdentity;
    let plain: CredentialSecret | undefined;
    try {
      id = this.#identity(product, kind, host);
      if (op !== 'delete') plain = checkSecret(secret);
    } catch (err) {
      const p = isProduct(product) ? product : '(invalid)';
      const k = typeof kind === 'string' && /^[a-z]{1,8}$/.test(kind) ? kind : '(invalid)';
      // The host is not echoed when it fails validation: it may hold a pasted "user:password@".
      const cluster = safeHost(host);
      this.#record(op, 'FAILED', { product: p, kind: k, cluster }, 'invalid');
      throw err;
    }
    const run = (): Promise<CredentialEntry | undefined> => this.#apply(op, id, plain);
    const next = this.#slot.queue.then(run, run);
    this.#slot.queue = next.catch(() => undefined);
    return next;
  }

  async #apply(
    op: CredentialOperation,
    id: RecordIdentity,
    secret: CredentialSecret | undefined,
  ): Promise<CredentialEntry | undefined> {
    const fields = {
      product: id.product,
      kind: id.kind,
      cluster: id.host,
      ...(secret ? { read_only: secret.read_only === true } : {}),
    };
    const fail = (reason: string, err: unknown): never => {
      if (!(err instanceof AuditUnavailableError)) this.#record(op, 'FAILED', fields, reason);
      throw err;
    };
    // Another process (the operator's `credentials` command, or the server while that command runs)
    // may change the file at any time: the key is derived first (it takes long), then the file is read
    // again, checked, sealed and written under the file's lock, so neither change is lost.
    for (let attempt = 1; ; attempt++) {
      let seen: VaultDoc | undefined;
      try {
        seen = this.#slot.file.read();
      } catch (err) {
        return fail('unreadable', err);
      }
      const refusal = this.#refusal(op, id, seen);
      if (refusal) return fail(refusal.reason, refusal.error);
      let key: Uint8Array | undefined;
      let salt: Buffer | undefined;
      if (op !== 'delete') {
        salt = seen ? undefined : (this.#slot.freshSalt ??= newSalt());
        try {
          key = seen ? await this.#keyFor(seen) : await this.#keys.get(this.client, saltB64(salt as Buffer));
        } catch (err) {
          return fail(err instanceof CredentialError ? 'key_mismatch' : 'key_unavailable', err);
        }
      }
      const busy = new CredentialError(`the credential store of client ${this.client} is busy; try again`);
      let outcome: { entry: CredentialEntry | undefined; created: boolean } | 'key_changed';
      try {
        outcome = await withFileLock(
          this.#slot.file.path,
          () => this.#commit(op, id, secret, seen, key, salt, fields),
          { busy: () => busy },
        );
      } catch (err) {
        if (err instanceof CommitRefusal) {
          if (!err.audit) throw err.error;
          return fail(err.reason, err.error);
        }
        return fail(err === busy ? 'busy' : 'unavailable', err);
      }
      if (outcome === 'key_changed') {
        // The file was created or re-keyed meanwhile: derive the key of the file as it is now.
        if (attempt < 3) continue;
        return fail('busy', busy);
      }
      if (outcome.created) delete this.#slot.freshSalt;
      this.#log.info({ client: this.client, ...fields, operation: op }, `credential ${op}`);
      return outcome.entry;
    }
  }

  /** Why `op` cannot apply to `doc` (exists for a store, absent otherwise), if it cannot. */
  #refusal(
    op: CredentialOperation,
    id: RecordIdentity,
    doc: VaultDoc | undefined,
  ): { reason: string; error: CredentialError } | undefined {
    const exists = doc?.records[slotKey(id.product, id.kind, id.host)] !== undefined;
    if (op === 'store' && exists)
      return {
        reason: 'exists',
        error: new CredentialError(`${describeSlot(id)} already exist; use update to replace them`),
      };
    if (op !== 'store' && !exists) return { reason: 'not_found', error: notFound(id) };
    return undefined;
  }

  /**
   * The change itself, synchronous under the file's lock: the file as it is now, the same checks, the
   * audit record, the write. 'key_changed' when the file's key is no longer the one derived for it.
   */
  #commit(
    op: CredentialOperation,
    id: RecordIdentity,
    secret: CredentialSecret | undefined,
    seen: VaultDoc | undefined,
    key: Uint8Array | undefined,
    salt: Buffer | undefined,
    fields: CredentialAuditFields,
  ): { entry: CredentialEntry | undefined; created: boolean } | 'key_changed' {
    let doc: VaultDoc | undefined;
    try {
      doc = this.#slot.file.read();
    } catch (err) {
      throw new CommitRefusal('unreadable', err);
    }
    const refusal = this.#refusal(op, id, doc);
    if (refusal) throw new CommitRefusal(refusal.reason, refusal.error);
    const slot = slotKey(id.product, id.kind, id.host);
    let next: VaultDoc;
    let entry: CredentialEntry | undefined;
    if (op === 'delete' && doc) {
      const records = { ...doc.records };
      delete records[slot];
      next = { ...doc, records };
    } else {
      const sameKey = doc
        ? seen !== undefined && doc.kdf.salt === seen.kdf.salt && doc.keyCheck === seen.keyCheck
        : seen === undefined;
      if (!sameKey) return 'key_changed';
      const k = key as Uint8Array;
      const base = doc ?? newVaultDoc(this.client, salt as Buffer, keyCheckValue(k));
      const updatedAt = new Date().toISOString();
      next = {
        ...base,
        records: { ...base.records, [slot]: sealRecord(k, id, secret as CredentialSecret, updatedAt) },
      };
      entry = {
        product: id.product,
        kind: id.kind,
        host: id.host,
        updatedAt,
        read_only: secret?.read_only === true,
      };
    }

    // Audit first: when the record cannot be written AuditLog throws, and the change is not saved.
    this.#record(op, 'OK', fields);
    try {
      this.#slot.file.write(next);
    } catch (err) {
      this.#log.error(
        { client: this.client, ...fields, operation: op, err },
        'credential store write failed',
      );
      try {
        this.#record(op, 'FAILED', fields, 'write_failed');
      } catch {
        // Already audited as OK; the caller is told below that nothing was saved.
      }
      throw new CommitRefusal(
        'write_failed',
        new CredentialError(`${describeSlot(id)} could not be saved; nothing was changed`, { cause: err }),
        false,
      );
    }
    return { entry, created: !doc };
  }

  /** The client's key for this file, checked once against the file's key check value. */
  async #keyFor(doc: VaultDoc): Promise<Uint8Array> {
    const key = await this.#keys.get(this.client, doc.kdf.salt);
    const pair = `${doc.kdf.salt}|${doc.keyCheck}`;
    if (this.#slot.verified !== pair) {
      if (!keyCheckMatches(key, doc.keyCheck)) {
        throw new CredentialError(
          `the credentials of client ${this.client} were sealed under another vault master secret ` +
            '(secrets/vault_master.key replaced or restored from another installation); nothing can be read or changed',
        );
      }
      this.#slot.verified = pair;
    }
    return key;
  }

  #record(
    op: CredentialOperation,
    status: 'OK' | 'FAILED',
    fields: CredentialAuditFields,
    reason?: string,
  ): void {
    this.#audit.write({
      event: 'CREDENTIAL',
      status,
      operation: op,
      client: this.client,
      ...fields,
      ...(reason ? { reason } : {}),
    });
  }
}

/** What a credential change's audit record names; never a secret. */
interface CredentialAuditFields {
  product: string;
  kind: string;
  cluster: string;
  /** Whether the credential stored or updated is read-only (absent for a delete). */
  read_only?: boolean;
}

/** A refusal found under the lock, carried out of it to be audited (unless already) and thrown. */
class CommitRefusal extends Error {
  constructor(
    readonly reason: string,
    readonly error: unknown,
    readonly audit = true,
  ) {
    super(reason);
  }
}

function describeSlot(id: RecordIdentity): string {
  return `the ${id.kind} credentials of client ${id.client} for ${id.product} host ${id.host}`;
}

function notFound(id: RecordIdentity): CredentialError {
  return new CredentialError(
    `no ${id.kind} credentials are stored for ${id.product} host ${id.host} (client ${id.client})`,
  );
}

function saltB64(salt: Buffer): string {
  return salt.toString('base64');
}

function safeHost(host: unknown): string {
  try {
    return normaliseHost(host);
  } catch {
    return '(invalid)';
  }
}
