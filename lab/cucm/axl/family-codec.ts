import type { Cell, Database, Row } from '../../informix/database.ts';
import type { XmlObject, XmlValue } from '../../xml/parse.ts';
import { attrOf, isObject, textOf } from '../../xml/parse.ts';
import type { XmlOutObject } from '../../xml/write.ts';
import { AxlFault, invalidRequest } from './fault.ts';
import type { Family, FieldSpec, OpKind } from './family.ts';
import { orderRank, servedIn } from './family.ts';

/** AXL shows a pkid as an uppercase GUID in braces. */
export function uuidOf(pkid: Cell | undefined): string {
  return pkid ? `{${pkid.toUpperCase()}}` : '';
}

export function pkidOf(uuid: string): string {
  return uuid.replace(/[{}]/g, '').trim().toLowerCase();
}

/** A foreign key as AXL shows it (XFkType): the referenced row's name, its uuid as an attribute. */
export function fkOut(db: Database, table: string, pkid: Cell | undefined, display = 'name'): XmlOutObject {
  const row = db.table(table).byPkid(pkid);
  return row ? { '#text': row[display] ?? '', '@uuid': uuidOf(row.pkid) } : { '#text': '', '@uuid': '' };
}

/** The element at a path such as `autoRegistration/startDn` below `value`. */
export function pathValue(value: XmlValue | undefined, path: string): XmlValue | undefined {
  let current = value;
  for (const part of path.split('/')) {
    if (!isObject(current)) return undefined;
    const next: XmlValue | undefined = current[part];
    current = Array.isArray(next) ? next[0] : next;
  }
  return current;
}

function setPath(out: XmlOutObject, path: string, value: XmlOutObject[string]): void {
  const parts = path.split('/');
  let target = out;
  for (const part of parts.slice(0, -1)) {
    const next = target[part];
    if (next === undefined || next === null || typeof next !== 'object' || Array.isArray(next))
      target[part] = {};
    target = target[part] as XmlOutObject;
  }
  target[parts[parts.length - 1] as string] = value;
}

export function topName(field: { axl: string }): string {
  return field.axl.split('/')[0] as string;
}

/** The object as AXL returns it: `uuid` attribute, then each field (only `wanted` ones when given). */
export function readObject(
  db: Database,
  family: Family,
  row: Readonly<Row>,
  wanted?: Set<string>,
  op: 'get' | 'list' = 'get',
): XmlOutObject {
  const out: XmlOutObject = { '@uuid': uuidOf(row.pkid) };
  for (const field of family.fields) {
    if (!servedIn(field, op) || (wanted && !wanted.has(topName(field)))) continue;
    setPath(out, field.axl, readField(db, field, row));
  }
  for (const nested of family.nested ?? []) {
    if (!nested.read || !servedIn(nested, op) || (wanted && !wanted.has(nested.shape.name))) continue;
    out[nested.shape.name] = nested.read(db, row);
  }
  if (!family.order) return out;
  // Strict clients (zeep) read a sequence in the schema's order: put the elements in it.
  const keys = Object.keys(out);
  const ordered: XmlOutObject = {};
  for (const k of keys.filter((k) => k.startsWith('@'))) ordered[k] = out[k];
  const elements = keys.filter((k) => !k.startsWith('@'));
  elements
    .map((k, i) => ({ k, i }))
    .sort((a, b) => orderRank(family, a.k) - orderRank(family, b.k) || a.i - b.i)
    .forEach(({ k }) => (ordered[k] = out[k]));
  return ordered;
}

function readField(db: Database, field: FieldSpec, row: Readonly<Row>): XmlOutObject[string] {
  switch (field.type) {
    case 'fixed':
      return field.value;
    case 'enum':
      return field.values[row[field.column] ?? ''] ?? row[field.column] ?? null;
    case 'fk':
      return fkOut(db, field.table, row[field.column], field.display);
    case 'bool':
      return row[field.column] === 't' ? 'true' : 'false';
    default:
      return row[field.column] ?? null;
  }
}

/** Converts one request element to the column value it stands for. */
export function fieldCell(db: Database, field: FieldSpec, value: XmlValue): Cell {
  const text = (textOf(value) ?? '').trim();
  switch (field.type) {
    case 'fixed':
      return null;
    case 'bool':
      if (/^(true|t|1)$/i.test(text)) return 't';
      if (/^(false|f|0)$/i.test(text)) return 'f';
      throw invalidRequest(`The value "${text}" is not a valid boolean for ${field.axl}`);
    case 'enum': {
      const entry = Object.entries(field.values).find(
        ([, name]) => name.toLowerCase() === text.toLowerCase(),
      );
      if (!entry) throw invalidRequest(`The value "${text}" is not valid for ${field.axl}`);
      return entry[0];
    }
    case 'fk': {
      const uuid = attrOf(value, 'uuid');
      const table = db.table(field.table);
      if (uuid) {
        const row = table.byPkid(pkidOf(uuid));
        if (!row)
          throw new AxlFault(5007, `Item not valid: The specified ${field.axl} uuid ${uuid} was not found`);
        return row.pkid ?? null;
      }
      if (text === '') return null;
      const row = table.findBy(field.display, text);
      if (!row)
        throw new AxlFault(5007, `Item not valid: The specified ${text} was not found (${field.axl})`);
      return row.pkid ?? null;
    }
    default:
      return text;
  }
}

/**
 * The column values an add or update carries. Elements absent from the request are left out, so an
 * update changes only what it names.
 */
export function columnsFromInput(
  db: Database,
  family: Family,
  input: XmlObject,
  skip: Set<string>,
  op: OpKind,
): Row {
  const row: Row = {};
  for (const field of family.fields) {
    if (field.type === 'fixed' || skip.has(field.axl) || !servedIn(field, op)) continue;
    const value = pathValue(input, field.axl);
    if (value === undefined) continue;
    row[field.column] = fieldCell(db, field, value);
  }
  return row;
}

export function fixedFieldsCheck(family: Family, input: XmlObject): void {
  for (const field of family.fields) {
    if (field.type !== 'fixed') continue;
    const given = textOf(pathValue(input, field.axl));
    if (given !== undefined && given !== '' && given.toLowerCase() !== field.value.toLowerCase()) {
      throw invalidRequest(`The value "${given}" is not valid for ${field.axl}; expected ${field.value}`);
    }
  }
}
