// What a node's file is before it is kept: a gzip stream (a trace rotated by the node, .gz) is expanded
// with a hard cap on what it may grow to, so a small hostile file that would expand to gigabytes (a
// decompression bomb) is refused with a coded error after at most the cap was produced, never expanded
// unbounded; a zip archive is read from its central directory (entry count, declared sizes and ratio
// bounded) and each entry inflated with the same cap, so sizes that lie are caught too. Anything else is
// kept as sent. And the name a file is kept under comes from the node: it is reduced to a plain file
// name of a safe alphabet, never used as a path.
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { PayloadTooLargeError, ServiceabilityError } from '../../../../kernel/sdk/index.ts';

export interface ContentLimits {
  /** Largest expanded content of one file. */
  maxExpandedBytes: number;
  /** Largest expansion ratio accepted (expanded / compressed); real traces compress about 10:1. */
  maxRatio: number;
  /** Most entries of a zip archive. */
  maxZipEntries: number;
}

export const DEFAULT_CONTENT_LIMITS: ContentLimits = {
  maxExpandedBytes: 64 * 1024 * 1024,
  maxRatio: 200,
  maxZipEntries: 256,
};

export type Checked =
  | { kind: 'gzip'; expanded: Buffer }
  | { kind: 'zip'; entries: number; expandedBytes: number }
  | { kind: 'plain' };

function bomb(name: string, detail: string): PayloadTooLargeError {
  return new PayloadTooLargeError(`${name} is refused as a decompression bomb: ${detail}`);
}

function capOf(compressed: number, l: ContentLimits): number {
  return Math.min(l.maxExpandedBytes, Math.max(1024 * 1024, compressed * l.maxRatio));
}

function inflateCapped(fn: () => Buffer, name: string, cap: number): Buffer {
  try {
    return fn();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
      throw bomb(name, `it expands beyond ${cap} bytes`);
    throw new ServiceabilityError(`${name} is not a valid compressed file (${(err as Error).message})`);
  }
}

/** Checks `data` (the file `name` as the node sent it); see the head of this file. */
export function checkContent(data: Buffer, name: string, l: ContentLimits = DEFAULT_CONTENT_LIMITS): Checked {
  if (data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b) {
    const cap = capOf(data.length, l);
    return {
      kind: 'gzip',
      expanded: inflateCapped(() => gunzipSync(data, { maxOutputLength: cap }), name, cap),
    };
  }
  if (data.length >= 4 && data.readUInt32LE(0) === 0x04034b50) return checkZip(data, name, l);
  return { kind: 'plain' };
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function checkZip(data: Buffer, name: string, l: ContentLimits): Checked {
  const broken = (why: string) => new ServiceabilityError(`${name} is not a valid zip archive (${why})`);
  // The end record is in the last 64 KiB + 22 bytes (its comment is at most 65535 bytes).
  let eocd = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 65_535); i--)
    if (data.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  if (eocd < 0) throw broken('no end of central directory');
  const entries = data.readUInt16LE(eocd + 10);
  const cdOffset = data.readUInt32LE(eocd + 16);
  if (entries > l.maxZipEntries) throw bomb(name, `it has ${entries} entries (at most ${l.maxZipEntries})`);
  const cap = capOf(data.length, l);
  let total = 0;
  let at = cdOffset;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== CENTRAL)
      throw broken('a central record is missing');
    const method = data.readUInt16LE(at + 10);
    const compressed = data.readUInt32LE(at + 20);
    const declared = data.readUInt32LE(at + 24);
    const nameLen = data.readUInt16LE(at + 28);
    const extraLen = data.readUInt16LE(at + 30);
    const commentLen = data.readUInt16LE(at + 32);
    const local = data.readUInt32LE(at + 42);
    // Zip64 and encrypted archives carry their sizes elsewhere: not what a node's logs are.
    if (compressed === 0xffffffff || declared === 0xffffffff) throw broken('zip64 is not read');
    total += declared;
    if (total > cap) throw bomb(name, `its entries declare more than ${cap} bytes`);
    if (local + 30 > data.length || data.readUInt32LE(local) !== LOCAL)
      throw broken('a local header is missing');
    const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
    if (start + compressed > data.length) throw broken('an entry runs past the end (cut short)');
    const raw = data.subarray(start, start + compressed);
    const room = cap - (total - declared);
    // The declared size may lie: the cap is what is left of the whole, whatever the entry says.
    const out =
      method === 0
        ? raw
        : method === 8
          ? inflateCapped(() => inflateRawSync(raw, { maxOutputLength: room }), name, cap)
          : null;
    if (out === null) throw broken(`compression method ${method} is not read`);
    if (out.length !== declared) throw broken('an entry is not the size it declares');
    at += 46 + nameLen + extraLen + commentLen;
  }
  return { kind: 'zip', entries, expandedBytes: total };
}

/**
 * The name a node's file is kept under: its base name reduced to letters, digits, ".", "_" and "-"
 * (anything else becomes "_"), no leading dot, at most 100 characters; `fallback` when nothing is left.
 */
export function keptName(nodePath: string, fallback: string): string {
  const base = nodePath.slice(Math.max(nodePath.lastIndexOf('/'), nodePath.lastIndexOf('\\')) + 1);
  const safe = base
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^[.]+/, '')
    .slice(0, 100);
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(safe) ? safe : fallback;
}
