// The vault of the integration-test client: where store_integration_credentials puts the managed-node
// credentials and what run_tests hands the integration tests against real nodes. The same vault the
// server opens (same state directory, master secret and per-client key), so credentials stored here
// are the integration-test client's own, and every change is a CREDENTIAL record in audit.log.

import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import bunyan from 'bunyan';
import { AuditLog, type AuditEntry } from '../audit/audit-log.ts';
import type { Config } from '../config/schema.ts';
import { statePaths } from '../paths.ts';
import { Vault, type ClientVault } from '../vault/index.ts';
import type { CliIo } from './command.ts';
import { readSettings } from './settings.ts';

export const DEFAULT_INTEGRATION_CLIENT = 'integration-test';
/** Environment variables run_tests sets for the integration tests (and operators may set themselves). */
export const ENV_STATE_DIR = 'UC_INTEGRATION_STATE_DIR';
export const ENV_CLIENT = 'UC_INTEGRATION_CLIENT';

export interface IntegrationTarget {
  stateDir: string;
  client: string;
  config: Config | undefined;
}

/**
 * The state directory: `--state-dir`, else UC_INTEGRATION_STATE_DIR, else the server's STATE_DIR
 * (environment or .env). The client: `--client`, else UC_INTEGRATION_CLIENT, else integration-test.
 */
export function integrationTarget(
  io: CliIo,
  command: string,
  opts: { stateDir?: string | undefined; client?: string | undefined },
): IntegrationTarget {
  const settings = readSettings(io, command);
  const explicit = opts.stateDir ?? io.env[ENV_STATE_DIR];
  return {
    stateDir: explicit ? resolve(io.cwd, explicit) : settings.stateDir,
    client: opts.client ?? io.env[ENV_CLIENT] ?? DEFAULT_INTEGRATION_CLIENT,
    config: settings.config,
  };
}

export interface OpenVault {
  view: ClientVault;
  close(): Promise<void>;
}

/**
 * Opens the target client's vault (creating the master secret on a fresh state directory). `ip` goes
 * into the vault's audit records as a tool call's source address does; `mark` adds fields to each
 * (`by: 'operator'` for a change made at the operator's command line).
 */
export function openClientVault(
  command: string,
  target: Pick<IntegrationTarget, 'stateDir' | 'client' | 'config'>,
  o: { ip?: string; mark?: Record<string, string> } = { ip: '127.0.0.1' },
): OpenVault {
  const paths = statePaths(target.stateDir);
  const { config } = target;
  mkdirSync(paths.logs, { recursive: true, mode: 0o700 });
  const audit = new AuditLog({
    path: paths.auditLog,
    maxBytes: config?.LOGGING_ROTATE_SIZE ?? 5_242_880,
    maxFiles: config?.LOGGING_ROTATE_FILES ?? 5,
    fsync: config?.AUDIT_FSYNC ?? false,
  });
  // The vault logs key derivations and failures; the operator sees results on the terminal instead.
  const log = bunyan.createLogger({ name: command, streams: [] });
  try {
    const marked = o.mark ? { write: (e: AuditEntry) => audit.write({ ...e, ...o.mark }) } : audit;
    const vault = Vault.open(paths, marked, log);
    return {
      view: vault.forClient(target.client, o.ip === undefined ? {} : { ip: o.ip }),
      close: () => audit.close(),
    };
  } catch (err) {
    void audit.close();
    throw err;
  }
}
