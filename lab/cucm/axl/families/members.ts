import type { Cell, Database, Row } from '../../../informix/database.ts';
import type { XmlValue } from '../../../xml/parse.ts';
import { asArray, childOf, childText, isObject, textOf } from '../../../xml/parse.ts';
import type { XmlOut, XmlOutObject } from '../../../xml/write.ts';
import { fieldCell, fkOut, uuidOf } from '../family-codec.ts';
import type { NestedSpec, Shape } from '../family.ts';
import { AxlFault } from '../fault.ts';

/** One element of a member: a plain value, a foreign key by name, or a directory number (pattern + partition). */
export type MemberPart =
  | { axl: string; column: string }
  | { axl: string; column: string; fk: { table: string; display: string } }
  | { axl: string; column: string; dirn: true };

function readPart(db: Database, part: MemberPart, row: Readonly<Row>): XmlOut {
  if ('fk' in part) return fkOut(db, part.fk.table, row[part.column], part.fk.display);
  if ('dirn' in part) {
    const dn = db.table('numplan').byPkid(row[part.column]);
    return {
      '@uuid': uuidOf(dn?.pkid),
      pattern: dn?.dnorpattern ?? '',
      routePartitionName: fkOut(db, 'routepartition', dn?.fkroutepartition, 'name'),
    };
  }
  return row[part.column] ?? null;
}

function writePart(db: Database, part: MemberPart, value: XmlValue | undefined): Cell {
  if (value === undefined) return null;
  if ('fk' in part)
    return fieldCell(db, { axl: part.axl, column: part.column, type: 'fk', ...part.fk }, value);
  if ('dirn' in part) {
    const pattern = childText(value, 'pattern') ?? '';
    const ptValue = childOf(value, 'routePartitionName');
    const partition =
      ptValue === undefined
        ? null
        : fieldCell(
            db,
            { axl: 'routePartitionName', column: '', type: 'fk', table: 'routepartition', display: 'name' },
            ptValue,
          );
    const dn = db.table('numplan').findByColumns({ dnorpattern: pattern, fkroutepartition: partition });
    if (!dn)
      throw new AxlFault(5007, `Item not valid: The specified directory number ${pattern} was not found`);
    return dn.pkid ?? null;
  }
  return (textOf(value) ?? '').trim();
}

function partShape(part: MemberPart): Shape {
  if ('fk' in part) return { name: part.axl, fk: true };
  if ('dirn' in part)
    return { name: part.axl, children: [{ name: 'pattern' }, { name: 'routePartitionName', fk: true }] };
  return { name: part.axl };
}

/**
 * An ordered member list kept in a map table (`members/member`): read in `order`, and replaced whole
 * on add or update as AXL does when the element is present. Never in list answers (the L types omit it).
 */
export function memberList(spec: {
  table: string;
  owner: string;
  order?: string;
  parts: MemberPart[];
  /** Defaults written with each new member (the fixed columns of the map). */
  fixed?: Row;
}): NestedSpec {
  return {
    skipIn: ['list'],
    shape: {
      name: 'members',
      children: [{ name: 'member', repeated: true, children: spec.parts.map(partShape) }],
    },
    read(db, row) {
      const rows = [...db.table(spec.table).lookup(spec.owner, row.pkid)];
      if (spec.order) {
        const order = spec.order;
        rows.sort((a, b) => Number(a[order]) - Number(b[order]));
      }
      if (rows.length === 0) return null;
      return {
        member: rows.map((m) => {
          const out: XmlOutObject = { '@uuid': uuidOf(m.pkid) };
          for (const part of spec.parts) out[part.axl] = readPart(db, part, m);
          return out;
        }),
      };
    },
    write(db, row, value) {
      for (const m of [...db.table(spec.table).lookup(spec.owner, row.pkid)]) db.delete(spec.table, m);
      if (!isObject(value)) return;
      asArray(value.member).forEach((m, i) => {
        const values: Row = { ...spec.fixed, [spec.owner]: row.pkid ?? null };
        for (const part of spec.parts) values[part.column] = writePart(db, part, childOf(m, part.axl));
        if (spec.order && (values[spec.order] === null || values[spec.order] === ''))
          values[spec.order] = String(i + 1);
        db.insert(spec.table, values);
      });
    },
  };
}
