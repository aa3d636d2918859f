import { asArray, childOf, childText, isObject } from '../../../xml/parse.ts';
import { fieldCell, uuidOf } from '../family-codec.ts';
import type { Family, FieldSpec, NestedSpec } from '../family.ts';

const partitionField: FieldSpec = {
  axl: 'routePartitionName',
  column: 'fkroutepartition',
  type: 'fk',
  table: 'routepartition',
  display: 'name',
};

const members: NestedSpec = {
  skipIn: ['list'],
  shape: {
    name: 'members',
    children: [
      {
        name: 'member',
        repeated: true,
        children: [{ name: 'routePartitionName', fk: true }, { name: 'index' }],
      },
    ],
  },
  read(db, row) {
    const list = [...db.table('callingsearchspacemember').lookup('fkcallingsearchspace', row.pkid)].sort(
      (a, b) => Number(a.sortorder) - Number(b.sortorder),
    );
    if (list.length === 0) return null;
    return {
      member: list.map((m) => {
        const partition = db.table('routepartition').byPkid(m.fkroutepartition);
        return {
          '@uuid': uuidOf(m.pkid),
          routePartitionName: { '#text': partition?.name ?? '', '@uuid': uuidOf(partition?.pkid) },
          index: m.sortorder,
        };
      }),
    };
  },
  write(db, row, value) {
    for (const m of [...db.table('callingsearchspacemember').lookup('fkcallingsearchspace', row.pkid)]) {
      db.delete('callingsearchspacemember', m);
    }
    const names: string[] = [];
    if (isObject(value)) {
      asArray(value.member).forEach((m, i) => {
        const partition = fieldCell(db, partitionField, childOf(m, 'routePartitionName') ?? '');
        db.insert('callingsearchspacemember', {
          fkcallingsearchspace: row.pkid,
          fkroutepartition: partition,
          sortorder: childText(m, 'index') || String(i + 1),
        });
        names.push(db.table('routepartition').byPkid(partition)?.name ?? '');
      });
    }
    // CUCM keeps the ordered partition list denormalised in callingsearchspace.clause.
    db.update('callingsearchspace', row, { clause: names.join(':') });
  },
};

export const routePartitionFamily: Family = {
  name: 'RoutePartition',
  tag: 'routePartition',
  label: 'Route Partition',
  table: 'routepartition',
  keys: ['name'],
  rename: { element: 'newName', field: 'name' },
  fields: [
    { axl: 'name', column: 'name' },
    { axl: 'description', column: 'description' },
  ],
  required: ['name'],
  search: ['name', 'description'],
  ops: ['get', 'list', 'add', 'update', 'remove', 'apply', 'restart'],
};

export const cssFamily: Family = {
  name: 'Css',
  tag: 'css',
  label: 'Calling Search Space',
  table: 'callingsearchspace',
  keys: ['name'],
  rename: { element: 'newName', field: 'name' },
  order: ['description', 'clause', 'members', 'name'],
  fields: [
    { axl: 'name', column: 'name' },
    { axl: 'description', column: 'description' },
    // Read-only in the real schema (RCss and LCss have it, XCss does not): kept by members' write.
    { axl: 'clause', column: 'clause', skipIn: ['add', 'update'] },
  ],
  nested: [members],
  required: ['name'],
  search: ['name', 'description'],
  ops: ['get', 'list', 'add', 'update', 'remove'],
};

export const devicePoolFamily: Family = {
  name: 'DevicePool',
  tag: 'devicePool',
  label: 'Device Pool',
  table: 'devicepool',
  keys: ['name'],
  rename: { element: 'newName', field: 'name' },
  fields: [
    { axl: 'name', column: 'name' },
    {
      axl: 'callManagerGroupName',
      column: 'fkcallmanagergroup',
      type: 'fk',
      table: 'callmanagergroup',
      display: 'name',
    },
  ],
  required: ['name', 'callManagerGroupName'],
  search: ['name'],
  ops: ['get', 'list', 'add', 'update', 'remove', 'apply', 'reset', 'restart'],
};
