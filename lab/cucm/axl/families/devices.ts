import type { Database, Row } from '../../../informix/database.ts';
import type { XmlValue } from '../../../xml/parse.ts';
import { asArray, childOf, childText, isObject } from '../../../xml/parse.ts';
import {
  CLASS_PHONE,
  CLASS_TRUNK,
  MODELS,
  PHONE_PRODUCTS,
  PROTOCOL_SIP,
  PROTOCOLS,
  SIP_TRUNK_MODEL,
} from '../../db/types.ts';
import { fieldCell, fkOut, uuidOf } from '../family-codec.ts';
import type { Family, FieldSpec, NestedSpec } from '../family.ts';
import { invalidRequest } from '../fault.ts';

const partitionField: FieldSpec = {
  axl: 'routePartitionName',
  column: 'fkroutepartition',
  type: 'fk',
  table: 'routepartition',
  display: 'name',
};

const common: FieldSpec[] = [
  {
    axl: 'callingSearchSpaceName',
    column: 'fkcallingsearchspace',
    type: 'fk',
    table: 'callingsearchspace',
    display: 'name',
  },
  { axl: 'devicePoolName', column: 'fkdevicepool', type: 'fk', table: 'devicepool', display: 'name' },
  {
    axl: 'securityProfileName',
    column: 'fksecurityprofile',
    type: 'fk',
    table: 'securityprofile',
    display: 'name',
  },
];

/** Finds the directory number a phone line names, creating it as AXL addPhone does when it is new. */
export function lineFor(db: Database, dirn: XmlValue | undefined): Row {
  const pattern = childText(dirn, 'pattern');
  if (!pattern) throw invalidRequest('line/dirn/pattern is required');
  const partitionValue = childOf(dirn, 'routePartitionName');
  const partition = partitionValue === undefined ? null : fieldCell(db, partitionField, partitionValue);
  const numplan = db.table('numplan');
  return (
    numplan.findByColumns({ dnorpattern: pattern, fkroutepartition: partition }) ??
    db.insert('numplan', { dnorpattern: pattern, fkroutepartition: partition, tkpatternusage: '2' })
  );
}

const lines: NestedSpec = {
  skipIn: ['list'],
  shape: {
    name: 'lines',
    children: [
      {
        name: 'line',
        repeated: true,
        children: [
          { name: 'index' },
          { name: 'label' },
          { name: 'display' },
          { name: 'dirn', children: [{ name: 'pattern' }, { name: 'routePartitionName', fk: true }] },
        ],
      },
    ],
  },
  read(db, row) {
    const maps = [...db.table('devicenumplanmap').lookup('fkdevice', row.pkid)].sort(
      (a, b) => Number(a.numplanindex) - Number(b.numplanindex),
    );
    if (maps.length === 0) return null;
    return {
      line: maps.map((m) => {
        const dn = db.table('numplan').byPkid(m.fknumplan);
        return {
          '@uuid': uuidOf(m.pkid),
          index: m.numplanindex,
          label: m.label,
          display: m.display,
          dirn: {
            '@uuid': uuidOf(dn?.pkid),
            pattern: dn?.dnorpattern ?? '',
            routePartitionName: fkOut(db, 'routepartition', dn?.fkroutepartition, 'name'),
          },
        };
      }),
    };
  },
  write(db, row, value) {
    const maps = [...db.table('devicenumplanmap').lookup('fkdevice', row.pkid)];
    for (const m of maps) db.delete('devicenumplanmap', m);
    if (!isObject(value)) return;
    asArray(value.line).forEach((line, i) => {
      const dn = lineFor(db, childOf(line, 'dirn'));
      db.insert('devicenumplanmap', {
        fkdevice: row.pkid,
        fknumplan: dn.pkid,
        numplanindex: childText(line, 'index') || String(i + 1),
        display: childText(line, 'display') ?? '',
        label: childText(line, 'label') ?? '',
      });
    });
  },
};

export const phoneFamily: Family = {
  name: 'Phone',
  tag: 'phone',
  label: 'Phone',
  table: 'device',
  keys: ['name'],
  rename: { element: 'newName', field: 'name' },
  where: { tkclass: CLASS_PHONE },
  order: [
    'name',
    'description',
    'product',
    'model',
    'class',
    'protocol',
    'protocolSide',
    'callingSearchSpaceName',
    'devicePoolName',
    'securityProfileName',
    'lines',
    'ownerUserName',
  ],
  fields: [
    { axl: 'name', column: 'name' },
    { axl: 'description', column: 'description' },
    // What a device is cannot change after add; the model is derived from the product and only read.
    { axl: 'product', column: 'tkproduct', type: 'enum', values: PHONE_PRODUCTS, skipIn: ['update'] },
    { axl: 'model', column: 'tkmodel', type: 'enum', values: PHONE_PRODUCTS, skipIn: ['add', 'update'] },
    { axl: 'class', type: 'fixed', value: 'Phone', skipIn: ['update'] },
    { axl: 'protocol', column: 'tkdeviceprotocol', type: 'enum', values: PROTOCOLS, skipIn: ['update'] },
    { axl: 'protocolSide', type: 'fixed', value: 'User', skipIn: ['update'] },
    ...common,
    { axl: 'ownerUserName', column: 'fkenduser', type: 'fk', table: 'enduser', display: 'userid' },
  ],
  nested: [lines],
  required: ['name', 'product', 'protocol', 'devicePoolName'],
  search: [
    'name',
    'description',
    'protocol',
    'callingSearchSpaceName',
    'devicePoolName',
    'securityProfileName',
  ],
  ops: ['get', 'list', 'add', 'update', 'remove', 'apply', 'reset', 'restart'],
  beforeAdd(values) {
    // The model follows the product unless given: AXL clients usually send only the product.
    values.tkmodel ??= values.tkproduct ?? null;
  },
};

/** A SIP trunk's destinations: through its sipdevice row (siptrunkdestination.fksipdevice). */
function trunkDestinations(db: Database, device: Row): Row[] {
  return db
    .table('sipdevice')
    .lookup('fkdevice', device.pkid)
    .flatMap((sd) => [...db.table('siptrunkdestination').lookup('fksipdevice', sd.pkid)]);
}

const destinations: NestedSpec = {
  skipIn: ['list'],
  shape: {
    name: 'destinations',
    children: [
      {
        name: 'destination',
        repeated: true,
        children: [{ name: 'addressIpv4' }, { name: 'port' }, { name: 'sortOrder' }],
      },
    ],
  },
  read(db, row) {
    const list = [...trunkDestinations(db, row)].sort((a, b) => Number(a.sortorder) - Number(b.sortorder));
    return list.length === 0
      ? null
      : { destination: list.map((d) => ({ addressIpv4: d.address, port: d.port, sortOrder: d.sortorder })) };
  },
  write(db, row, value) {
    for (const d of [...trunkDestinations(db, row)]) db.delete('siptrunkdestination', d);
    if (!isObject(value)) return;
    const sipDevice =
      db.table('sipdevice').lookup('fkdevice', row.pkid)[0] ?? db.insert('sipdevice', { fkdevice: row.pkid });
    asArray(value.destination).forEach((d, i) => {
      db.insert('siptrunkdestination', {
        fksipdevice: sipDevice.pkid,
        address: childText(d, 'addressIpv4') ?? '',
        port: childText(d, 'port') || '5060',
        sortorder: childText(d, 'sortOrder') || String(i + 1),
      });
    });
  },
};

export const sipTrunkFamily: Family = {
  name: 'SipTrunk',
  tag: 'sipTrunk',
  label: 'SIP Trunk',
  table: 'device',
  keys: ['name'],
  rename: { element: 'newName', field: 'name' },
  where: {
    tkclass: CLASS_TRUNK,
    tkmodel: SIP_TRUNK_MODEL,
    tkproduct: SIP_TRUNK_MODEL,
    tkdeviceprotocol: PROTOCOL_SIP,
  },
  fields: [
    { axl: 'name', column: 'name' },
    { axl: 'description', column: 'description' },
    { axl: 'product', type: 'fixed', value: MODELS[SIP_TRUNK_MODEL] as string, skipIn: ['update'] },
    { axl: 'class', type: 'fixed', value: 'Trunk', skipIn: ['update'] },
    { axl: 'protocol', type: 'fixed', value: 'SIP', skipIn: ['update'] },
    { axl: 'protocolSide', type: 'fixed', value: 'Network', skipIn: ['update'] },
    ...common,
    { axl: 'srtpAllowed', column: 'srtpallowed', type: 'bool' },
  ],
  nested: [destinations],
  required: ['name', 'devicePoolName', 'securityProfileName'],
  search: ['name', 'description', 'devicePoolName'],
  // 15.0 has resetSipTrunk and restartSipTrunk, but no applySipTrunk.
  ops: ['get', 'list', 'add', 'update', 'remove', 'reset', 'restart'],
};

export const lineFamily: Family = {
  name: 'Line',
  tag: 'line',
  label: 'Line',
  table: 'numplan',
  keys: ['pattern', 'routePartitionName'],
  rename: { element: 'newPattern', field: 'pattern' },
  where: { tkpatternusage: '2' },
  fields: [
    { axl: 'pattern', column: 'dnorpattern' },
    { axl: 'description', column: 'description' },
    { axl: 'usage', type: 'fixed', value: 'Device', skipIn: ['update'] },
    partitionField,
    { axl: 'alertingName', column: 'alertingname' },
  ],
  required: ['pattern'],
  search: ['pattern', 'description', 'routePartitionName'],
  ops: ['get', 'list', 'add', 'update', 'remove', 'apply', 'reset', 'restart'],
};
