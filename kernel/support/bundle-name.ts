import { hostname } from 'node:os';

/**
 * `show_tech_<hostname>_<timestamp>` (functional spec, Versioning 8). The timestamp is UTC
 * (`YYYYMMDDTHHMMSSZ`) so bundles from machines in different zones sort and compare; the host name is
 * reduced to file-name-safe characters.
 */
export function bundleName(now: Date, host: string = hostname()): string {
  const ts = now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
  const safeHost = host.replace(/[^A-Za-z0-9.-]/g, '_').slice(0, 64) || 'unknown-host';
  return `show_tech_${safeHost}_${ts}`;
}
