import type { KeyObject } from 'node:crypto';
import type { Config } from '../../config/schema.ts';
import type { AppLogger } from '../../logging/app-log.ts';
import { instanceId } from './instance-id.ts';
import { LocalBackend } from './local-backend.ts';
import { RedisBackend } from './redis-backend.ts';
import { RedisConnection } from './redis-connection.ts';
import type { StateBackend } from './state-backend.ts';

/** How long an instance's claim on its name lasts without a heartbeat (a crashed one's lapses after). */
export const INSTANCE_LEASE_MS = 5_000;

export interface OpenBackendDeps {
  /** The server private key (startup step 6): decrypts STATE_BACKEND_PASSWORD_ENC. */
  privateKey: KeyObject;
  log: AppLogger;
  /** Time source of the local backend's record expiry (tests move it forward). */
  clock?: () => number;
  /** Overrides INSTANCE_LEASE_MS (tests). */
  instanceLeaseMs?: number;
}

/**
 * Opens the backend STATE_BACKEND names. With a shared store the connection is made now (a store that
 * cannot be reached or refuses the credentials stops the start with a clear message), and this instance
 * claims its name there: two running instances with one INSTANCE_ID would write one audit file and
 * share leases, so the second is refused. A claim left by a crashed instance lapses within
 * INSTANCE_LEASE_MS, which the start waits out before refusing.
 */
export async function openStateBackend(config: Config, deps: OpenBackendDeps): Promise<StateBackend> {
  const instance = instanceId(config);
  if (config.STATE_BACKEND === 'local') return new LocalBackend(instance, deps.clock);
  const conn = await RedisConnection.open({
    url: config.STATE_BACKEND,
    passwordEnc: config.STATE_BACKEND_PASSWORD_ENC,
    caFile: config.STATE_BACKEND_TLS_CA_FILE,
    timeoutMs: config.STATE_BACKEND_TIMEOUT_MS,
    privateKey: deps.privateKey,
  });
  conn.logOutages(deps.log);
  const backend = new RedisBackend(conn, instance);
  backend.onDocumentProblem = (document, problem) =>
    deps.log.error(
      { document, problem },
      'a shared document in the state store was not taken; its last good copy is kept',
    );
  try {
    await backend.claimInstance(deps.instanceLeaseMs ?? INSTANCE_LEASE_MS, deps.log);
  } catch (err) {
    await backend.close();
    throw err;
  }
  deps.log.info({ state_store: conn.target, instance }, 'shared state store connected');
  return backend;
}
