import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The project root: where the shipped code, default profiles and manifests live. */
export const PROJECT_ROOT = resolve(import.meta.dirname, '..');

/** Package metadata read once, so every part reports the same version. */
const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};
export const PACKAGE_NAME = pkg.name;
export const PACKAGE_VERSION = pkg.version;

/** Every runtime path below one state directory (the project root unless STATE_DIR moves it). */
export interface StatePaths {
  root: string;
  secrets: string;
  clients: string;
  logs: string;
  backups: string;
  reports: string;
  /** The change journal: one `<client>.jsonl` per client. */
  changes: string;
  schemaCache: string;
  profiles: string;
  appLog: string;
  auditLog: string;
  rsaPrivateKey: string;
  rsaPublicKey: string;
  tlsCert: string;
  tlsKey: string;
  /** The server's local CA (when no operator certificate is configured): what users trust. */
  caCert: string;
  caKey: string;
}

export function statePaths(stateDir: string): StatePaths {
  const root = resolve(stateDir);
  const secrets = join(root, 'secrets');
  const logs = join(root, 'logs');
  return {
    root,
    secrets,
    clients: join(root, 'clients'),
    logs,
    backups: join(root, 'backups'),
    reports: join(root, 'reports'),
    changes: join(root, 'changes'),
    schemaCache: join(root, 'schema-cache'),
    profiles: join(root, 'profiles'),
    appLog: join(logs, 'app.log'),
    auditLog: join(logs, 'audit.log'),
    rsaPrivateKey: join(secrets, 'rsa_private.pem'),
    rsaPublicKey: join(secrets, 'rsa_public.pem'),
    tlsCert: join(secrets, 'tls_cert.pem'),
    tlsKey: join(secrets, 'tls_key.pem'),
    caCert: join(secrets, 'ca_cert.pem'),
    caKey: join(secrets, 'ca_key.pem'),
  };
}
