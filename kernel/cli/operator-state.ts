// The shared state store an operator command must write through when the installation has one
// (STATE_BACKEND=redis://...): the running instances keep that state there, not in the files below
// secrets/, so a command that changed the files would go unseen by them (or be overwritten).

import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { RedisBackend } from '../store/backend/redis-backend.ts';
import { RedisConnection } from '../store/backend/redis-connection.ts';
import type { StateBackend } from '../store/backend/state-backend.ts';
import type { OperatorSettings } from '../support/settings.ts';

/**
 * The shared store of the installation, connected, or null when it keeps its state locally (or its
 * settings do not validate: the files are then all there is). Not a server instance: it claims no
 * INSTANCE_ID and runs no job; close it when done. Rejects with a message naming the store (never its
 * password) when it cannot be reached.
 */
export async function operatorSharedState(settings: OperatorSettings): Promise<StateBackend | null> {
  const config = settings.config;
  if (!config || config.STATE_BACKEND === 'local') return null;
  // The password is encrypted under the server key; without a password the key is not needed.
  let privateKey: KeyObject | undefined;
  if (config.STATE_BACKEND_PASSWORD_ENC.trim() !== '')
    privateKey = createPrivateKey(readFileSync(settings.paths.rsaPrivateKey));
  const conn = await RedisConnection.open({
    url: config.STATE_BACKEND,
    passwordEnc: config.STATE_BACKEND_PASSWORD_ENC,
    caFile: config.STATE_BACKEND_TLS_CA_FILE,
    timeoutMs: config.STATE_BACKEND_TIMEOUT_MS,
    privateKey: privateKey as KeyObject,
  });
  return new RedisBackend(conn, 'operator');
}
