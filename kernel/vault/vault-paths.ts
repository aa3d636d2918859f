import { join } from 'node:path';
import type { StatePaths } from '../paths.ts';

export const CREDENTIALS_FILE = 'credentials.json';
export const KNOWN_HOSTS_FILE = 'known_hosts.json';
export const KNOWN_CERTIFICATES_FILE = 'known_certificates.json';

/** clients/<client>/vault/: removed with the client when it leaves AUTH_CLIENTS. */
export function vaultDir(paths: StatePaths, client: string): string {
  return join(paths.clients, client, 'vault');
}
