// What two images of one object are compared on: the content an administrator set, not how the node
// happened to spell it. Shared by AXL and CUPI, whose answers differ from their requests in the same ways.
import type { Json } from '../axl/schema.ts';

/** A value normalised for comparison: text leaves, no empty parts, lists in a stable order. */
export type Plain = string | Plain[] | { [key: string]: Plain };

/**
 * Fields whose value is never shown: a get does not return them and a diff or journal must not carry
 * them. Matched on whole words of the element name (`pin`, `ldapPassword`, `digestCredentials`,
 * `PinCredentials`), so `pingEnabled` or `pinnedCert` stay visible.
 */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'pin',
  'secret',
  'credential',
  'credentials',
  'passphrase',
]);

export function isSecretField(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => SECRET_WORDS.has(w));
}

/** Shown in place of a secret's value. */
export const MASKED = '(secret)';

/**
 * Elements that say in which order a list's items stand: a list carrying one of them is compared in
 * that order; any other AXL or CUPI list is a set and is compared sorted.
 */
const ORDER_FIELDS = [
  'index',
  'selectionOrder',
  'lineSelectionOrder',
  'deviceSelectionOrder',
  'sortOrder',
  'priority',
  'order',
];

/**
 * An image normalised for comparison:
 * - a foreign key (`{ $value: name, $attributes: { uuid } }`) is its name: the uuid of a reference is the
 *   node's bookkeeping, and a reference restored by name may point at a re-created object;
 * - attributes (`uuid`, `ctiid`) are dropped for the same reason (a CSS member's uuid is renewed by
 *   every write of the list);
 * - booleans and numbers are text (requests and answers disagree on `true` vs `"true"`);
 * - empty text, null, empty objects and empty lists are absent (AXL returns `<x/>` for what was never set);
 * - a list is sorted by its order element when its items have one, else by content; a list of one item
 *   is that item.
 * `drop` names top-level fields left out (the object's own uuid, read-only stamps).
 */
export function normalise(value: Json | undefined, drop: ReadonlySet<string> = new Set()): Plain | undefined {
  return plain(value, drop);
}

function plain(value: Json | undefined, drop: ReadonlySet<string>): Plain | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (Array.isArray(value)) {
    const items = value.map((v) => plain(v, EMPTY)).filter((v): v is Plain => v !== undefined);
    // One item is the item: a request may send `member: {...}` where the answer has `member: [{...}]`.
    if (items.length <= 1) return items[0];
    return sortItems(items);
  }
  if ('$value' in value) return plain(value.$value, EMPTY);
  const out: Record<string, Plain> = {};
  for (const key of Object.keys(value).sort()) {
    if (key.startsWith('$') || drop.has(key)) continue;
    const v = plain(value[key], EMPTY);
    if (v !== undefined) out[key] = v;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

const EMPTY: ReadonlySet<string> = new Set();

function sortItems(items: Plain[]): Plain[] {
  const field = ORDER_FIELDS.find((f) => items.every((i) => isRecord(i) && typeof i[f] === 'string'));
  if (field) {
    return [...items].sort((a, b) => orderOf(a, field) - orderOf(b, field) || compareText(a, b));
  }
  return [...items].sort(compareText);
}

function orderOf(item: Plain, field: string): number {
  const n = Number((item as Record<string, Plain>)[field]);
  return Number.isFinite(n) ? n : Number.MAX_SAFE_INTEGER;
}

function compareText(a: Plain, b: Plain): number {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function isRecord(v: unknown): v is Record<string, Plain> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Two normalised images hold the same content. */
export function sameContent(a: Plain | undefined, b: Plain | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A copy with every secret field's value replaced by MASKED (at any depth). */
export function maskSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => maskSecrets(v)) as T;
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, isSecretField(k) ? MASKED : maskSecrets(v as unknown)]),
  ) as T;
}
