import type { z } from 'zod';
import { StartupError } from '../errors/index.ts';
import type { DocumentOptions, StateBackend } from '../store/backend/state-backend.ts';
import type { DocumentStore } from '../store/document-store.ts';
import { FileDocumentStore } from '../store/document-store.ts';

/**
 * A FileDocumentStore whose file must have the given shape. A file of the wrong shape stops startup
 * with the file named: replacing it silently could re-enable revoked tokens or release blocked IPs.
 */
export function openJsonStore<T>(path: string, shape: z.ZodType<T>, initial: () => T): FileDocumentStore<T> {
  return new FileDocumentStore<T>(path, initial, shapeCheck(path, shape));
}

/**
 * Opens a JSON document of the given shape on the state backend: with the local backend the file as
 * openJsonStore keeps it (or memory, without a file); with a shared store the document `name` there,
 * seeded from the file when the store has none. A value of the wrong shape stops startup, named.
 */
export function openJsonDocument<T>(
  state: StateBackend,
  name: string,
  shape: z.ZodType<T>,
  initial: () => T,
  opts: { file?: string; sharedFile?: boolean } = {},
): Promise<DocumentStore<T>> {
  // The store's errors say which document; the local file's name the file, as they always have.
  const where = state.kind === 'local' && opts.file !== undefined ? opts.file : 'the value';
  const options: DocumentOptions<T> = {
    initial,
    validate: shapeCheck(where, shape),
    ...(opts.file !== undefined ? { file: opts.file } : {}),
    ...(opts.sharedFile ? { sharedFile: true } : {}),
  };
  return state.document(name, options);
}

function shapeCheck<T>(where: string, shape: z.ZodType<T>): (raw: unknown) => T {
  return (raw) => {
    const r = shape.safeParse(raw);
    if (!r.success)
      throw new StartupError(
        `${where} does not have the expected shape (${r.error.issues[0]?.message ?? 'invalid'})`,
      );
    return r.data;
  };
}
