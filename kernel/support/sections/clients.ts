import { readdirSync } from 'node:fs';
import type { OperatorSettings } from '../settings.ts';

const CLIENT_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * Client names only (functional spec, Versioning 8): those AUTH_CLIENTS configures and the folders in
 * clients/. Nothing else of a client is read: its folder holds its secrets, tokens and credentials.
 */
export function clientsSection(settings: OperatorSettings): Record<string, unknown> {
  const raw = settings.config?.AUTH_CLIENTS ?? settings.dotenv.AUTH_CLIENTS ?? '';
  const configured = raw
    .split(',')
    .map((entry) => entry.split(':')[0]?.trim() ?? '')
    .filter((name) => CLIENT_NAME.test(name));
  let onDisk: string[] = [];
  try {
    onDisk = readdirSync(settings.paths.clients, { withFileTypes: true })
      .filter((d) => d.isDirectory() && CLIENT_NAME.test(d.name))
      .map((d) => d.name)
      .sort();
  } catch {
    // No clients/ yet: the server has not started with clients.
  }
  return { configured, on_disk: onDisk };
}
