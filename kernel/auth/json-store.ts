import type { z } from 'zod';
import { StartupError } from '../errors/index.ts';
import { FileDocumentStore } from '../store/document-store.ts';

/**
 * A FileDocumentStore whose file must have the given shape. A file of the wrong shape stops startup
 * with the file named: replacing it silently could re-enable revoked tokens or release blocked IPs.
 */
export function openJsonStore<T>(path: string, shape: z.ZodType<T>, initial: () => T): FileDocumentStore<T> {
  return new FileDocumentStore<T>(path, initial, (raw) => {
    const r = shape.safeParse(raw);
    if (!r.success)
      throw new StartupError(
        `${path} does not have the expected shape (${r.error.issues[0]?.message ?? 'invalid'})`,
      );
    return r.data;
  });
}
