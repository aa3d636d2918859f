// What an AXL write means to leave behind, as a normalised image, and its diff against the before-image.
import type { Json } from '../axl/schema.ts';
import type { XsdField, XsdModel } from '../axl/xsd-model.ts';
import type { AxlImage } from './axl-before-image.ts';
import type { AxlTarget } from './axl-target.ts';
import type { FieldChange } from './field-diff.ts';
import { diffImages } from './field-diff.ts';
import type { Plain } from './values.ts';
import { isRecord, normalise, sameContent } from './values.ts';

/** `addMembers` / `removeMembers` beside `members`: the update's way to change part of a list. */
const LIST_EDIT = /^(add|remove)([A-Z]\w*)$/;

/**
 * The object as the write means to leave it: an add's object; for an update, the before-image with
 * each element the request sets (a list given whole replaces the list, `addX`/`removeX` edit it, a
 * rename changes the key); nothing for a remove.
 */
export function intendedImage(
  xsd: XsdModel,
  target: AxlTarget,
  before: AxlImage,
  args: Record<string, Json>,
): Plain | undefined {
  const { kind } = target;
  if (kind.verb === 'remove') return undefined;
  if (kind.verb === 'add') return normalise(args[kind.tag]) ?? {};
  const out: Record<string, Plain> = {
    ...(before.state === 'present' ? (before.image as Record<string, Plain>) : {}),
  };
  const fields = new Map((xsd.elementFields(kind.operation) ?? []).map((f) => [f.name, f]));
  const naming = new Set(['uuid', ...Object.keys(target.before)]);
  for (const [name, value] of Object.entries(args)) {
    if (naming.has(name) || name.startsWith('$')) continue;
    const renamed = kind.renames[name];
    if (renamed) {
      setOrDelete(out, renamed, normalise(value));
      continue;
    }
    const edit = LIST_EDIT.exec(name);
    const list = edit ? lowerFirst(edit[2] as string) : undefined;
    if (edit && list && fields.has(list) && !(list in args)) {
      setOrDelete(out, list, editList(out[list], normalise(value), edit[1] as 'add' | 'remove'));
      continue;
    }
    const field = fields.get(name);
    setOrDelete(out, name, field ? merged(xsd, field, out[name], value) : normalise(value));
  }
  return out;
}

/** The diff a preview shows: an add lists everything new, a remove everything gone. */
export function axlChangeDiff(
  xsd: XsdModel,
  target: AxlTarget,
  before: AxlImage,
  args: Record<string, Json>,
): FieldChange[] {
  const was = before.state === 'present' ? before.image : undefined;
  return diffImages(was, intendedImage(xsd, target, before, args), { secretsUnreadable: was !== undefined });
}

/**
 * An element set by an update: a nested structure is updated element by element (AXL leaves out what
 * the request leaves out), a repeated element is replaced whole.
 */
function merged(xsd: XsdModel, field: XsdField, was: Plain | undefined, value: Json): Plain | undefined {
  const kids = xsd.children(field);
  const now = normalise(value);
  if (kids.length === 0 || !isRecord(now) || !isRecord(was)) return now;
  if (kids.some((k) => k.maxOccurs > 1)) return now;
  const out: Record<string, Plain> = { ...was };
  const byName = new Map(kids.map((k) => [k.name, k]));
  const raw = value as Record<string, Json>;
  for (const name of Object.keys(now)) {
    const kid = byName.get(name);
    setOrDelete(out, name, kid ? merged(xsd, kid, was[name], raw[name] as Json) : now[name]);
  }
  return out;
}

/** A list container (`{ member: [...] }`) with items added or removed (matched on what the request gives). */
function editList(
  was: Plain | undefined,
  change: Plain | undefined,
  how: 'add' | 'remove',
): Plain | undefined {
  if (!isRecord(change)) return was;
  const out: Record<string, Plain> = isRecord(was) ? { ...was } : {};
  for (const [item, given] of Object.entries(change)) {
    const current = asList(out[item]);
    const edits = asList(given);
    const next =
      how === 'add' ? [...current, ...edits] : current.filter((c) => !edits.some((e) => matches(c, e)));
    setOrDelete(
      out,
      item,
      next.length === 0 ? undefined : next.length === 1 ? next[0] : normalise(next as Json),
    );
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** An item matches a removal when every element the removal gives has the item's value. */
function matches(item: Plain, removal: Plain): boolean {
  if (!isRecord(removal) || !isRecord(item)) return sameContent(item, removal);
  return Object.entries(removal).every(([k, v]) => sameContent(item[k], v));
}

function asList(v: Plain | undefined): Plain[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function setOrDelete(out: Record<string, Plain>, key: string, value: Plain | undefined): void {
  if (value === undefined) delete out[key];
  else out[key] = value;
}

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);
