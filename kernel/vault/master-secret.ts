import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '../errors/index.ts';
import { createFileExclusive } from '../store/atomic-file.ts';
import type { StatePaths } from '../paths.ts';
import { CREDENTIALS_FILE, KNOWN_HOSTS_FILE, vaultDir } from './vault-paths.ts';

export const MASTER_SECRET_BYTES = 32;
export const MASTER_SECRET_FILE = 'vault_master.key';

export interface MasterSecret {
  secret: Buffer;
  source: 'created' | 'loaded';
  path: string;
}

interface WarnLogger {
  warn(obj: object, msg: string): void;
}

export function masterSecretPath(paths: StatePaths): string {
  return join(paths.secrets, MASTER_SECRET_FILE);
}

/**
 * Loads secrets/vault_master.key (32 raw random bytes, 0600), creating it on first start. An
 * unreadable, empty or wrong-length file stops startup instead of being replaced, and so does a
 * missing file while clients already have sealed credentials: a new secret would silently turn
 * every stored credential into noise.
 */
export function loadOrCreateMasterSecret(paths: StatePaths, log?: WarnLogger): MasterSecret {
  const path = masterSecretPath(paths);
  if (!existsSync(path)) {
    const sealed = clientsWithVaultFiles(paths);
    if (sealed.length > 0) {
      throw new StartupError(
        `${path} is missing but ${sealed.length} client(s) have vault files (${sealed.slice(0, 5).join(', ')}); ` +
          'restore the vault master secret from a backup, or remove those clients/<name>/vault directories to start over',
      );
    }
    if (createFileExclusive(path, randomBytes(MASTER_SECRET_BYTES))) {
      return { secret: readSecret(path), source: 'created', path };
    }
  }
  tightenMode(path, log);
  return { secret: readSecret(path), source: 'loaded', path };
}

function readSecret(path: string): Buffer {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (err) {
    throw new StartupError(
      `${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); refusing to replace it`,
      { cause: err },
    );
  }
  if (buf.length !== MASTER_SECRET_BYTES) {
    throw new StartupError(
      `${path} holds ${buf.length} bytes, expected ${MASTER_SECRET_BYTES}; it is damaged or not a vault master secret. ` +
        'Restore it from a backup; it is never regenerated, because that would make every stored credential unreadable',
    );
  }
  return buf;
}

// A restore or a copy can widen the mode; the secret must stay readable by the server's user only.
function tightenMode(path: string, log?: WarnLogger): void {
  try {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      chmodSync(path, 0o600);
      log?.warn(
        { path, mode: mode.toString(8) },
        'vault master secret was readable by others; mode set to 0600',
      );
    }
  } catch {
    // readSecret reports an unreadable file with the proper error.
  }
}

function clientsWithVaultFiles(paths: StatePaths): string[] {
  let names: string[];
  try {
    names = readdirSync(paths.clients);
  } catch {
    return [];
  }
  return names.filter((n) =>
    [CREDENTIALS_FILE, KNOWN_HOSTS_FILE].some((f) => existsSync(join(vaultDir(paths, n), f))),
  );
}
