import type { AuditLog } from './audit/audit-log.ts';
import type { LoadedConfig } from './config/load.ts';
import type { Config } from './config/schema.ts';
import type { ServerKeys } from './keys/rsa-keys.ts';
import type { AppLogger } from './logging/app-log.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { StatePaths } from './paths.ts';
import type { TlsMaterial } from './tls/certificate.ts';
import type { WatchdogRunner } from './watchdogs/runner.ts';

export type LicenseState = 'VALID' | 'GRACE' | 'EXPIRED' | 'INVALID';

/** What /status and infra tools report about the license (filled by the license gate). */
export interface LicenseStatus {
  state: LicenseState;
  tier: string | null;
  expiresAt: string | null;
  products: string[];
  /** Why the state is what it is, e.g. "no license file". */
  reason: string;
}

/** The last backup written by the backup watchdog, or null before the first. */
export interface BackupStatus {
  timestamp: string;
  filename: string;
}

/** The kernel's services, built by the startup sequence and handed to routes and (later) plugins. */
export interface KernelRuntime {
  config: Config;
  loaded: LoadedConfig;
  paths: StatePaths;
  log: AppLogger;
  audit: AuditLog;
  metrics: Metrics;
  watchdogs: WatchdogRunner;
  tls: TlsMaterial;
  keys: ServerKeys;
  startedAt: Date;
  license: LicenseStatus;
  /** Product modules currently loaded (plugin ids). */
  modules: string[];
  lastBackup: BackupStatus | null;
  /** The external base URL (issuer and resource), known once the server listens. */
  publicBaseUrl: string;
}
