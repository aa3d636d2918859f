import type { AuditLog } from './audit/audit-log.ts';
import type { AuthServices } from './auth/services.ts';
import type { ClientRegistry } from './clients/registry.ts';
import type { LoadedConfig } from './config/load.ts';
import type { Config } from './config/schema.ts';
import type { ServerKeys } from './keys/rsa-keys.ts';
import type { AppLogger } from './logging/app-log.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { StatePaths } from './paths.ts';
import type { TlsMaterial } from './tls/certificate.ts';
import type { WatchdogRunner } from './watchdogs/runner.ts';
import type { Vault } from './vault/index.ts';
import type { IntegrityChecker } from './integrity/index.ts';
import type { LicenseGate } from './license/index.ts';
import type { NodeAddressPolicy } from './net/node-address-policy.ts';
import type { StateBackend } from './store/backend/state-backend.ts';

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
  /** The time source of every expiry decision (license, tokens, blacklist): injectable for tests. */
  clock: () => number;
  license: LicenseStatus;
  /** Product modules currently loaded (plugin ids). */
  modules: string[];
  lastBackup: BackupStatus | null;
  /** The external base URL (issuer and resource), known once the server listens. */
  publicBaseUrl: string;
  /** Clients configured by AUTH_CLIENTS (startup step 7). */
  clients: ClientRegistry;
  /** OAuth authorization server, token verification, revocation list and IP blacklist. */
  auth: AuthServices;
  /** Encrypted managed-node credentials and SSH host-key decisions, per client. */
  vault: Vault;
  integrity: IntegrityChecker;
  licenseGate: LicenseGate;
  /** Where managed nodes may be (NODE_ALLOWED_NETWORKS); learns the server's own listener at step 11. */
  nodeAddresses: NodeAddressPolicy;
  /** The state several instances share (STATE_BACKEND): local memory and files, or Redis/Valkey. */
  state: StateBackend;
}
