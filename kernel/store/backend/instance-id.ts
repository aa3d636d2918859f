import { hostname } from 'node:os';
import type { Config } from '../../config/schema.ts';

/** This instance's name: INSTANCE_ID, else the host name (what a container's name usually is). */
export function instanceId(config: Pick<Config, 'INSTANCE_ID'>): string {
  return config.INSTANCE_ID || hostname() || 'instance';
}

/**
 * This instance's file for one of the logs (logs/app.log, logs/audit.log). With the local backend it is
 * the file it always was; with a shared store the state directory is shared by every instance, and each
 * keeps its own file, `<log>-<instance>` (its name still starts with the log's, so backups, restores
 * and support bundles find it), so that no two processes append to or rotate one file.
 */
export function instanceLogPath(
  defaultPath: string,
  config: Pick<Config, 'STATE_BACKEND' | 'INSTANCE_ID'>,
): string {
  if (config.STATE_BACKEND === 'local') return defaultPath;
  const safe = instanceId(config).replace(/[^A-Za-z0-9._-]/g, '_');
  return `${defaultPath}-${safe}`;
}
