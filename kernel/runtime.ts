import type { AuditLog } from './audit/audit-log.ts';
import type { LoadedConfig } from './config/load.ts';
import type { Config } from './config/schema.ts';
import type { ServerKeys } from './keys/rsa-keys.ts';
import type { AppLogger } from './logging/app-log.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { StatePaths } from './paths.ts';
import type { TlsMaterial } from './tls/certificate.ts';
import type { WatchdogRunner } from './watchdogs/runner.ts';

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
  /** The external base URL (issuer and resource), known once the server listens. */
  publicBaseUrl: string;
}
