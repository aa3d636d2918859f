import { createHash } from 'node:crypto';
import { BadRequestError } from '../errors/index.ts';

/** Deeper than any AXL or CUPI object; bounds the recursion a crafted argument could ask for. */
const MAX_DEPTH = 64;

/**
 * A SHA-256 of a JSON value by content: object keys sorted at every depth, so two reads of the same
 * object (or the same arguments written in another order) give the same digest. `undefined` members
 * are left out, as JSON leaves them out.
 */
export function contentDigest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value, 0)).digest('hex');
}

function canonicalJson(value: unknown, depth: number): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (depth >= MAX_DEPTH) throw new BadRequestError(`a value nested deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(',')}]`;
  const members = Object.keys(value as Record<string, unknown>)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k], depth + 1)}`);
  return `{${members.join(',')}}`;
}
