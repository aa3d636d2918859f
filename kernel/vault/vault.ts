import { join } from 'node:path';
import type { StatePaths } from '../paths.ts';
import { ClientVault, type ClientSlot } from './client-vault.ts';
import { checkClientName } from './identity.ts';
import { KeyCache } from './key-derivation.ts';
import { KnownCertificatesFile, knownCertificatesMacKey } from './known-certificates-file.ts';
import { KnownHostsFile, knownHostsMacKey } from './known-hosts-file.ts';
import { loadOrCreateMasterSecret, type MasterSecret } from './master-secret.ts';
import { VaultFile } from './vault-file.ts';
import { CREDENTIALS_FILE, KNOWN_CERTIFICATES_FILE, KNOWN_HOSTS_FILE, vaultDir } from './vault-paths.ts';
import type { VaultAudit, VaultLogger } from './vault-types.ts';

/**
 * The credential vault and SSH trust store of every client. Open it once per process (startup):
 * derived keys are memoised here, so a second instance would pay the 600,000 iterations again.
 * Plugins never see this object, only the `ClientVault` of the calling client.
 */
export class Vault {
  readonly #keys: KeyCache;
  readonly #master: MasterSecret;
  readonly #clients = new Map<string, ClientSlot>();

  private constructor(
    private readonly paths: StatePaths,
    master: MasterSecret,
    private readonly audit: VaultAudit,
    private readonly log: VaultLogger,
  ) {
    this.#master = master;
    this.#keys = new KeyCache(master.secret, {
      onDerived: (client, ms) => log.info({ client, ms: Math.round(ms) }, 'vault key derived'),
    });
  }

  /**
   * Loads (or on first start creates) secrets/vault_master.key. Throws StartupError when the secret
   * is unusable or missing while sealed credentials exist: startup must stop rather than lose them.
   */
  static open(paths: StatePaths, audit: VaultAudit, log: VaultLogger): Vault {
    return new Vault(paths, loadOrCreateMasterSecret(paths, log), audit, log);
  }

  /** Whether this start created the master secret or loaded an existing one (startup step detail). */
  get masterSecretSource(): MasterSecret['source'] {
    return this.#master.source;
  }

  /** PBKDF2 derivations started by this instance: one per client (per salt) for the process's life. */
  get derivations(): number {
    return this.#keys.derivations;
  }

  /**
   * The view of one client: it can only reach that client's credentials and host keys. `ip` (the
   * caller's source address) is added to the CREDENTIAL and TRUSTED audit records the view writes.
   */
  forClient(client: string, context: { ip?: string } = {}): ClientVault {
    const name = checkClientName(client);
    let slot = this.#clients.get(name);
    if (!slot) {
      const dir = vaultDir(this.paths, name);
      slot = {
        file: new VaultFile(join(dir, CREDENTIALS_FILE), name),
        knownHosts: new KnownHostsFile(
          join(dir, KNOWN_HOSTS_FILE),
          name,
          knownHostsMacKey(this.#master.secret, name),
        ),
        knownCertificates: new KnownCertificatesFile(
          join(dir, KNOWN_CERTIFICATES_FILE),
          name,
          knownCertificatesMacKey(this.#master.secret, name),
        ),
        queue: Promise.resolve(),
      };
      this.#clients.set(name, slot);
    }
    const { ip } = context;
    const audit: VaultAudit =
      ip === undefined ? this.audit : { write: (entry) => this.audit.write({ ...entry, ip }) };
    return new ClientVault(name, slot, this.#keys, audit, this.log);
  }
}
