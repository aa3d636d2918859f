// The journal keeps its images through the audit log's redaction (kernel/logging/redact.ts), which errs
// on the side of hiding: any field whose name looks secret (`authorizationCodeRequired`, a `*Token*`)
// and secret-shaped text become `[REDACTED...]`. Such a value is not the node's: an undo never compares
// it (the journal does not know it) and never sends it back (the node would refuse it, or store it).
import type { Plain } from './values.ts';
import { isRecord } from './values.ts';

const MARK = '[REDACTED';

function redacted(v: Plain | undefined): boolean {
  return typeof v === 'string' && v.includes(MARK);
}

/**
 * `current` with every value the journal's `image` holds redacted taken from `image`, so that the two
 * compare equal there and on their other fields only. Both normalised (lists in the same order).
 */
export function alignRedacted(current: Plain | undefined, image: Plain | undefined): Plain | undefined {
  if (redacted(image)) return current === undefined ? undefined : image;
  if (isRecord(current) && isRecord(image)) {
    const out: Record<string, Plain> = {};
    for (const [k, v] of Object.entries(current)) {
      const aligned = alignRedacted(v, image[k]);
      if (aligned !== undefined) out[k] = aligned;
    }
    return out;
  }
  if (Array.isArray(current) && Array.isArray(image) && current.length === image.length)
    return current.map((v, i) => alignRedacted(v, image[i]) as Plain);
  return current;
}

/** The image without its redacted values (a list item that held one is kept without it), and their paths. */
export function withoutRedacted(image: Plain | null): { image: Plain | null; paths: string[] } {
  const paths: string[] = [];
  const strip = (v: Plain, path: string): Plain | undefined => {
    if (redacted(v)) {
      paths.push(path);
      return undefined;
    }
    if (Array.isArray(v)) return v.map((x, i) => strip(x, `${path}[${i}]`) ?? {});
    if (!isRecord(v)) return v;
    const out: Record<string, Plain> = {};
    for (const [k, x] of Object.entries(v)) {
      const kept = strip(x, path === '' ? k : `${path}.${k}`);
      if (kept !== undefined) out[k] = kept;
    }
    return out;
  };
  return { image: image === null ? null : (strip(image, '') ?? null), paths };
}

export const REDACTED_LOSS =
  'the journal keeps it redacted (its name or text looks secret to the audit redaction): its earlier value cannot be put back';

/** The top-level field of a path (`lines.line[0].dirn` -> `lines`). */
export function topField(path: string): string {
  return path.split(/[.[]/)[0] ?? path;
}
