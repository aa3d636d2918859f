// A field-by-field diff of two normalised images of one object: what a change would do, in a form a
// person reads in a preview or a confirmation prompt. Secrets are never shown, only that they change.
import type { Plain } from './values.ts';
import { isRecord, isSecretField, MASKED, maskSecrets, sameContent } from './values.ts';

export interface FieldChange {
  /** `description`, `lines.line[index=2].dirn.pattern`, `members.member[routePartitionName=PT_A]`. */
  path: string;
  /** null: the field (or object) is absent on that side. */
  before: Plain | null;
  after: Plain | null;
}

export interface DiffOptions {
  /**
   * The before-image was read from a node that never returns secrets (AXL get, CUPI GET): a secret the
   * change sets shows its before as not readable rather than as absent.
   */
  secretsUnreadable?: boolean;
}

/** What a secret the node never returns shows as its before-value. */
export const UNREADABLE = '(not readable)';

/**
 * Item fields that name a list item, most telling first: a CSS member by its partition rather than its
 * position, a phone's line by its index. The first one present and unique on both sides is used.
 */
const ITEM_KEYS = [
  'routePartitionName',
  'routeGroupName',
  'lineGroupName',
  'huntListName',
  'mediaResourceGroupName',
  'callManagerName',
  'deviceName',
  'userid',
  'name',
  'pattern',
  'index',
  'selectionOrder',
  'lineSelectionOrder',
  'deviceSelectionOrder',
  'ObjectId',
];

/**
 * The differences between `before` and `after`, in a stable order (fields sorted, list items in key or
 * position order). Absent on one side, the object's top-level fields are listed one by one (an add shows
 * everything new, a remove everything gone); deeper, a part present on one side only is one entry.
 */
export function diffImages(
  before: Plain | undefined,
  after: Plain | undefined,
  options: DiffOptions = {},
): FieldChange[] {
  const out: FieldChange[] = [];
  if (before === undefined && isRecord(after)) {
    for (const key of Object.keys(after).sort()) push(out, key, undefined, after[key], options);
  } else if (after === undefined && isRecord(before)) {
    for (const key of Object.keys(before).sort()) push(out, key, before[key], undefined, options);
  } else walk(out, '', before, after, options);
  return out;
}

function walk(
  out: FieldChange[],
  path: string,
  before: Plain | undefined,
  after: Plain | undefined,
  options: DiffOptions,
): void {
  if (sameContent(before, after)) return;
  if (isRecord(before) && isRecord(after)) {
    for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
      walk(out, join(path, key), before[key], after[key], options);
    }
    return;
  }
  const listed = Array.isArray(before) || Array.isArray(after);
  if (listed && before !== undefined && after !== undefined && !isSecretPath(path)) {
    walkList(out, path, asList(before), asList(after), options);
    return;
  }
  push(out, path, before, after, options);
}

function walkList(
  out: FieldChange[],
  path: string,
  before: Plain[],
  after: Plain[],
  options: DiffOptions,
): void {
  const key = ITEM_KEYS.find((k) => namesItems(before, k) && namesItems(after, k));
  if (!key) {
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      walk(out, `${path}[${i}]`, before[i], after[i], options);
    }
    return;
  }
  const label = (item: Plain): string => (item as Record<string, string>)[key] as string;
  const byLabel = new Map(before.map((b) => [label(b), b]));
  const seen = new Set<string>();
  // Items in the order the change leaves them, then those it removes.
  for (const a of after) {
    seen.add(label(a));
    walk(out, `${path}[${key}=${label(a)}]`, byLabel.get(label(a)), a, options);
  }
  for (const b of before) {
    if (!seen.has(label(b))) walk(out, `${path}[${key}=${label(b)}]`, b, undefined, options);
  }
}

function namesItems(items: Plain[], key: string): boolean {
  const labels = items.map((i) => (isRecord(i) ? i[key] : undefined));
  return labels.every((l) => typeof l === 'string') && new Set(labels).size === labels.length;
}

function asList(v: Plain): Plain[] {
  return Array.isArray(v) ? v : [v];
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function isSecretPath(path: string): boolean {
  return path.split('.').some((segment) => isSecretField(segment.replace(/\[.*$/, '')));
}

function push(
  out: FieldChange[],
  path: string,
  before: Plain | undefined,
  after: Plain | undefined,
  options: DiffOptions,
): void {
  if (isSecretPath(path)) {
    out.push({
      path,
      before: before !== undefined ? MASKED : options.secretsUnreadable ? UNREADABLE : null,
      after: after !== undefined ? MASKED : null,
    });
    return;
  }
  out.push({ path, before: maskSecrets(before) ?? null, after: maskSecrets(after) ?? null });
}
