import type { Database, Row } from '../../informix/database.ts';
import { likeToRegExp } from '../../informix/sql-executor.ts';
import type { XmlObject, XmlValue } from '../../xml/parse.ts';
import { asArray, childOf, childText, isObject, textOf } from '../../xml/parse.ts';
import type { XmlOut } from '../../xml/write.ts';
import {
  columnsFromInput,
  fieldCell,
  fixedFieldsCheck,
  pathValue,
  pkidOf,
  readObject,
  uuidOf,
} from './family-codec.ts';
import type { Family, FieldSpec, NestedSpec } from './family.ts';
import { fieldColumn, listEdits, servedIn } from './family.ts';
import { AxlFault, invalidRequest, notFound } from './fault.ts';
import type { AxlContext, AxlOperation } from './operation.ts';

function inFamily(family: Family, row: Readonly<Row> | undefined): row is Row {
  if (!row) return false;
  return (
    Object.entries(family.where ?? {}).every(([c, v]) => row[c] === v) && (family.matches?.(row) ?? true)
  );
}

function fieldFor(family: Family, axl: string): FieldSpec {
  const field = family.fields.find((f) => f.axl === axl);
  if (!field) throw new Error(`family ${family.name} has no field ${axl}`);
  return field;
}

/** The row a get/update/remove names, by `uuid` or by the family's key elements. */
export function findRow(ctx: AxlContext, family: Family, req: XmlObject): Row {
  const table = ctx.db.table(family.table);
  if (family.singleton) {
    const only = table.filter((r) => inFamily(family, r))[0];
    if (!only) throw notFound(family.label);
    return only;
  }
  const uuid = childText(req, 'uuid');
  if (uuid) {
    const row = table.byPkid(pkidOf(uuid));
    if (!inFamily(family, row)) throw notFound(`${family.label} uuid ${uuid}`);
    return row;
  }
  const wanted: Row = {};
  const shown: string[] = [];
  for (const key of family.keys) {
    const field = fieldFor(family, key);
    const column = fieldColumn(field);
    const value = childOf(req, key);
    if (!column) continue;
    if (value === undefined) {
      if (field.type === 'fk') {
        wanted[column] = null;
        continue;
      }
      throw invalidRequest(`${family.name}: either uuid or ${family.keys.join(' and ')} must be specified`);
    }
    shown.push(textOf(value) ?? '');
    wanted[column] =
      field.type === 'fk' && (textOf(value) ?? '') === '' ? null : safeCell(ctx, field, value, family, shown);
  }
  const row = table.findByColumns(wanted);
  if (!inFamily(family, row)) throw notFound(`${shown.join(' in ')}`);
  return row;
}

function safeCell(
  ctx: AxlContext,
  field: FieldSpec,
  value: XmlObject[string],
  family: Family,
  shown: string[],
) {
  try {
    return fieldCell(ctx.db, field, value as NonNullable<typeof value>);
  } catch (err) {
    // A key naming a missing partition means the object itself does not exist.
    if (err instanceof AxlFault && field.type === 'fk')
      throw notFound(`${family.label} ${shown.join(' in ')}`);
    throw err;
  }
}

function wantedTags(req: XmlObject): Set<string> | undefined {
  const tags = req.returnedTags;
  if (!isObject(tags)) return undefined;
  const names = Object.keys(tags).filter((k) => !k.startsWith('@') && k !== '#text');
  return names.length > 0 ? new Set(names) : undefined;
}

function describe(family: Family, row: Readonly<Row>): string {
  const key = family.keys.map((k) => {
    const column = fieldColumn(fieldFor(family, k));
    return column ? (row[column] ?? '') : '';
  });
  return `${family.name}:${key.join('/')}`;
}

export function familyOperations(family: Family): AxlOperation[] {
  const ops: AxlOperation[] = [];
  const table = family.table;
  if (family.ops.includes('get')) {
    ops.push({
      name: `get${family.name}`,
      write: false,
      handle: (ctx, req) => {
        const row = findRow(ctx, family, req);
        return {
          body: { return: { [family.tag]: readObject(ctx.db, family, row, wantedTags(req)) } },
          rows: 1,
        };
      },
    });
  }
  if (family.ops.includes('list')) {
    ops.push({
      name: `list${family.name}`,
      write: false,
      handle: (ctx, req) => {
        const criteria = req.searchCriteria;
        const given = family.search
          .map((name) => ({ name, pattern: childText(criteria, name) }))
          .filter((c): c is { name: string; pattern: string } => c.pattern !== undefined);
        if (given.length === 0) {
          throw invalidRequest(`searchCriteria must name at least one of: ${family.search.join(', ')}`);
        }
        // A criterion on a plain column is matched on the row itself: building the object of every row
        // for every page made reading a 25,000-phone table page by page quadratic in practice.
        const matchers = given.map((c) => {
          const field = family.fields.find((f) => f.axl === c.name);
          const plain = field && 'column' in field && (field.type === undefined || field.type === 'text');
          return {
            name: c.name,
            re: likeToRegExp(c.pattern.toLowerCase()),
            column: plain ? field.column : undefined,
          };
        });
        let rows = ctx.db.table(table).filter((r) => inFamily(family, r));
        if (matchers.length > 0) {
          const objectWanted = new Set(matchers.filter((m) => m.column === undefined).map((m) => m.name));
          rows = rows.filter((r) => {
            const shown = objectWanted.size > 0 ? readObject(ctx.db, family, r, objectWanted) : {};
            return matchers.every((m) =>
              m.re.test(
                (m.column !== undefined ? (r[m.column] ?? '') : displayText(shown[m.name])).toLowerCase(),
              ),
            );
          });
        }
        const skip = Number(childText(req, 'skip') ?? 0) || 0;
        const firstText = childText(req, 'first');
        const first = firstText === undefined || firstText === '' ? undefined : Number(firstText);
        const page = rows.slice(skip, first === undefined ? undefined : skip + first);
        const wanted = wantedTags(req);
        const items = page.map((r) => readObject(ctx.db, family, r, wanted, 'list'));
        return { body: { return: items.length > 0 ? { [family.tag]: items } : null }, rows: items.length };
      },
    });
  }
  if (family.ops.includes('add')) {
    ops.push({
      name: `add${family.name}`,
      write: true,
      handle: (ctx, req) => {
        const input = req[family.tag];
        if (!isObject(input)) throw invalidRequest(`add${family.name} needs a ${family.tag} element`);
        fixedFieldsCheck(family, input);
        for (const required of family.required) {
          const value = textOf(pathValue(input, required));
          if (value === undefined || value === '')
            throw invalidRequest(`${required} is required to add a ${family.label}`);
        }
        const values = { ...columnsFromInput(ctx.db, family, input, new Set(), 'add'), ...family.where };
        family.beforeAdd?.(values);
        const row = ctx.db.insert(table, values);
        try {
          for (const nested of family.nested ?? []) {
            if (!servedIn(nested, 'add')) continue;
            const value = input[nested.shape.name];
            if (value !== undefined && nested.write) nested.write(ctx.db, row, value, 'add');
          }
        } catch (err) {
          ctx.db.delete(table, row);
          throw err;
        }
        ctx.log.write({
          node: ctx.node,
          via: 'axl',
          operation: `add${family.name}`,
          target: describe(family, row),
        });
        return { body: { return: uuidOf(row.pkid) } };
      },
    });
  }
  if (family.ops.includes('update')) {
    ops.push({
      name: `update${family.name}`,
      write: true,
      handle: (ctx, req) => {
        const row = findRow(ctx, family, req);
        fixedFieldsCheck(family, req);
        const changes = columnsFromInput(ctx.db, family, req, new Set(family.keys), 'update');
        if (family.rename) {
          const newValue = childOf(req, family.rename.element);
          if (newValue !== undefined) {
            const column = fieldColumn(fieldFor(family, family.rename.field));
            if (column) changes[column] = fieldCell(ctx.db, fieldFor(family, family.rename.field), newValue);
          }
        }
        ctx.db.update(table, row, changes);
        for (const nested of family.nested ?? []) {
          if (!servedIn(nested, 'update')) continue;
          const value = req[nested.shape.name] ?? editedList(ctx.db, family, nested, row, req);
          if (value !== undefined && nested.write) nested.write(ctx.db, row, value, 'update');
        }
        ctx.log.write({
          node: ctx.node,
          via: 'axl',
          operation: `update${family.name}`,
          target: describe(family, row),
        });
        return { body: { return: uuidOf(row.pkid) } };
      },
    });
  }
  if (family.ops.includes('remove')) {
    ops.push({
      name: `remove${family.name}`,
      write: true,
      handle: (ctx, req) => {
        const row = findRow(ctx, family, req);
        const target = describe(family, row);
        ctx.db.delete(table, row);
        ctx.log.write({ node: ctx.node, via: 'axl', operation: `remove${family.name}`, target });
        return { body: { return: uuidOf(row.pkid) } };
      },
    });
  }
  for (const action of ['apply', 'reset', 'restart'] as const) {
    if (!family.ops.includes(action)) continue;
    const name = `${action}${family.name}`;
    ops.push({
      name,
      write: true,
      handle: (ctx, req) => {
        const row = findRow(ctx, family, req);
        // The lab has no phones to reboot: the action is recorded, as the node's audit log would.
        ctx.log.write({ node: ctx.node, via: 'axl', operation: name, target: describe(family, row) });
        return { body: { return: uuidOf(row.pkid) } };
      },
    });
  }
  return ops;
}

/**
 * A nested list after the update's `remove<List>` and `add<List>` items (undefined when it has none):
 * an item goes when every element the removal gives has its value; added items follow the kept ones.
 */
function editedList(
  db: Database,
  family: Family,
  nested: NestedSpec,
  row: Row,
  req: XmlObject,
): XmlValue | undefined {
  const name = nested.shape.name;
  if (!listEdits(family).includes(name) || !nested.read) return undefined;
  const List = name.charAt(0).toUpperCase() + name.slice(1);
  const removed = req[`remove${List}`];
  const added = req[`add${List}`];
  if (removed === undefined && added === undefined) return undefined;
  const item = nested.shape.children?.[0]?.name as string;
  const itemsOf = (v: XmlValue | undefined): XmlValue[] => asArray(isObject(v) ? v[item] : undefined);
  const kept = itemsOf(asValue(nested.read(db, row))).filter(
    (i) => !itemsOf(removed).some((r) => sameGiven(i, r)),
  );
  return { [item]: [...kept, ...itemsOf(added)] };
}

/** Whether `item` has every value `given` names (text leaves compared, attributes ignored). */
function sameGiven(item: XmlValue, given: XmlValue): boolean {
  if (!isObject(given)) return textOf(item) === textOf(given);
  const keys = Object.keys(given).filter((k) => !k.startsWith('@'));
  if (keys.length === 0 || keys.every((k) => k === '#text')) return textOf(item) === textOf(given);
  return keys.every(
    (k) => given[k] !== undefined && sameGiven(childOf(item, k) ?? '', childOf(given, k) as XmlValue),
  );
}

/** What a nested part reads (XmlOut) as a request value (XmlValue): text leaves, nothing empty. */
function asValue(out: XmlOut): XmlValue | undefined {
  if (out === null || out === undefined) return undefined;
  if (typeof out !== 'object') return String(out);
  if (Array.isArray(out)) return out.map(asValue).filter((v): v is XmlValue => v !== undefined);
  const obj: XmlObject = {};
  for (const [k, v] of Object.entries(out)) {
    const value = asValue(v);
    if (value !== undefined) obj[k] = value;
  }
  return obj;
}

function displayText(value: XmlOut): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && !Array.isArray(value)) return String(value['#text'] ?? '');
  return String(value);
}
