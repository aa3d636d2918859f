import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { StartupError } from '../errors/index.ts';
import { writeJsonAtomic } from '../store/atomic-file.ts';

const schema = z.object({
  client_secret_hash: z.string().regex(/^\$2[aby]\$\d{2}\$.{53}$/),
  created_at: z.string(),
  /** The token last written to .token, revoked when it is replaced (renewal, rotation, operator). */
  startup_token: z.object({ jti: z.string(), exp: z.number() }).optional(),
  /** A token a running renewal replaced and has not revoked yet; a crash leaves it for the next start. */
  replaced_startup_token: z.object({ jti: z.string(), exp: z.number() }).optional(),
});
/** Server-owned record of a client (clients/<name>/secrets/registration.json). */
export type Registration = z.output<typeof schema>;

/** Reads a client's registration; null when there is none yet (a new client). */
export function readRegistration(path: string): Registration | null {
  if (!existsSync(path)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new StartupError(
      `${path} does not parse (${(err as Error).message}); delete it to issue a new client secret`,
    );
  }
  const r = schema.safeParse(raw);
  if (!r.success)
    throw new StartupError(
      `${path} is not a valid client registration; delete it to issue a new client secret`,
    );
  return r.data;
}

export function writeRegistration(path: string, reg: Registration): void {
  writeJsonAtomic(path, reg, 0o600);
}
