// One client's trust store on disk (SSH known hosts, trusted HTTPS certificates): a versioned body of
// per-host entries, HMAC-authenticated (authenticated-json.ts) and written atomically. A store that
// cannot be read, parsed or authenticated fails closed with the store's own coded error.
import { z } from 'zod';
import { withFileLockSync } from '../store/file-lock.ts';
import { readAuthenticated, writeAuthenticated } from './authenticated-json.ts';

export interface TrustStoreSpec<E> {
  format: string;
  version: number;
  entry: z.ZodType<E>;
  /** The error that refuses every connection relying on an unusable store. */
  unusable: (client: string, why: string) => Error;
}

export interface TrustStoreContent<E> {
  hosts: Record<string, E>;
}

export class TrustStoreFile<E> {
  readonly #macKey: Buffer;
  readonly #body: z.ZodType<{ format: string; version: number; client: string; hosts: Record<string, E> }>;

  constructor(
    readonly path: string,
    private readonly client: string,
    macKey: Buffer,
    private readonly spec: TrustStoreSpec<E>,
  ) {
    this.#macKey = macKey;
    this.#body = z.strictObject({
      format: z.literal(spec.format),
      version: z.literal(spec.version),
      client: z.string(),
      hosts: z.record(z.string(), spec.entry),
    });
  }

  read(): TrustStoreContent<E> {
    const raw = readAuthenticated(this.path, this.#macKey, (p) =>
      this.spec.unusable(
        this.client,
        p === 'unparsable'
          ? 'it does not parse'
          : p === 'mac'
            ? 'its integrity check failed (edited outside the server, or another master secret)'
            : `it cannot be read (${p.unreadable})`,
      ),
    );
    if (raw === undefined) return { hosts: {} };
    const body = this.#body.safeParse(raw);
    if (!body.success || body.data.client !== this.client)
      throw this.spec.unusable(this.client, 'unexpected content');
    return { hosts: body.data.hosts };
  }

  /**
   * Records one host's entry. Under the file's lock it reads the store as it is now and replaces only
   * that entry, so instances sharing the state directory (or an operator command) that each record
   * another host at the same moment never write over each other's entries.
   */
  put(slot: string, entry: E): void {
    withFileLockSync(this.path, () => this.write({ hosts: { ...this.read().hosts, [slot]: entry } }), {
      busy: () => this.spec.unusable(this.client, 'another process holds it locked for too long'),
    });
  }

  write(known: TrustStoreContent<E>): void {
    writeAuthenticated(this.path, this.#macKey, {
      format: this.spec.format,
      version: this.spec.version,
      client: this.client,
      hosts: known.hosts,
    });
  }
}
