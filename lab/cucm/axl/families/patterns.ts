import type { Database, Row } from '../../../informix/database.ts';
import type { XmlValue } from '../../../xml/parse.ts';
import { attrOf, childOf, textOf } from '../../../xml/parse.ts';
import type { XmlOut } from '../../../xml/write.ts';
import { PATTERN_USAGE } from '../../db/schema-dialplan.ts';
import { fkOut, pkidOf } from '../family-codec.ts';
import type { Family, FieldSpec, NestedSpec } from '../family.ts';
import { AxlFault } from '../fault.ts';
import { bool, CRUD, descriptionField, fk, text } from './builder.ts';
import { CLASS_ROUTE_LIST, HUNT_LIST_MODEL } from './device-kinds.ts';

const patternField: FieldSpec = { axl: 'pattern', column: 'dnorpattern' };
const partitionField = fk('routePartitionName', 'fkroutepartition', 'routepartition');

/** A pattern in the numplan table with one typepatternusage: what route, translation and hunt pilots are. */
function patternFamily(
  spec: Pick<Family, 'name' | 'tag' | 'label'> & {
    usage: string;
    fields: FieldSpec[];
    nested?: NestedSpec[];
    ops?: Family['ops'];
    order?: readonly string[];
  },
): Family {
  return {
    name: spec.name,
    tag: spec.tag,
    label: spec.label,
    table: 'numplan',
    keys: ['pattern', 'routePartitionName'],
    rename: { element: 'newPattern', field: 'pattern' },
    where: { tkpatternusage: spec.usage },
    fields: [patternField, descriptionField, partitionField, ...spec.fields],
    ...(spec.nested ? { nested: spec.nested } : {}),
    ...(spec.order ? { order: spec.order } : {}),
    required: ['pattern'],
    search: ['pattern', 'description', 'routePartitionName'],
    ops: spec.ops ?? CRUD,
  };
}

/** The device a pattern routes to, kept as in CUCM: a devicenumplanmap row from the device to the pattern. */
function targetOf(db: Database, row: Readonly<Row>): Row | undefined {
  const map = db.table('devicenumplanmap').lookup('fknumplan', row.pkid)[0];
  return map ? db.table('device').byPkid(map.fkdevice) : undefined;
}

function setTarget(db: Database, row: Row, value: XmlValue | undefined, what: string): void {
  for (const m of [...db.table('devicenumplanmap').lookup('fknumplan', row.pkid)])
    db.delete('devicenumplanmap', m);
  if (value === undefined) return;
  const uuid = attrOf(value, 'uuid');
  const name = (textOf(value) ?? '').trim();
  if (!uuid && name === '') return;
  const device = uuid ? db.table('device').byPkid(pkidOf(uuid)) : db.table('device').findBy('name', name);
  if (!device)
    throw new AxlFault(5007, `Item not valid: The specified ${what} ${name || uuid} was not found`);
  // Each pattern routed to a device takes the device's next index (the map is unique per device and index).
  const used = db
    .table('devicenumplanmap')
    .lookup('fkdevice', device.pkid)
    .map((m) => Number(m.numplanindex));
  const index = String(Math.max(0, ...used) + 1);
  db.insert('devicenumplanmap', { fkdevice: device.pkid, fknumplan: row.pkid, numplanindex: index });
}

const fkText = (db: Database, device: Row | undefined): XmlOut => fkOut(db, 'device', device?.pkid);

/** A route pattern's destination: a route list, or a gateway or trunk (`gatewayName`), never both. */
const destination: NestedSpec = {
  skipIn: ['list'],
  shape: {
    name: 'destination',
    children: [
      { name: 'gatewayName', fk: true },
      { name: 'routeListName', fk: true },
    ],
  },
  read(db, row) {
    const device = targetOf(db, row);
    if (!device) return null;
    return device.tkclass === CLASS_ROUTE_LIST
      ? { routeListName: fkText(db, device) }
      : { gatewayName: fkText(db, device) };
  },
  write(db, row, value) {
    const list = childOf(value, 'routeListName');
    setTarget(db, row, list ?? childOf(value, 'gatewayName'), list ? 'route list' : 'gateway');
  },
};

const huntListName: NestedSpec = {
  shape: { name: 'huntListName', fk: true },
  read(db, row) {
    const device = targetOf(db, row);
    return fkText(db, device?.tkmodel === HUNT_LIST_MODEL ? device : undefined);
  },
  write(db, row, value) {
    setTarget(db, row, value, 'hunt list');
  },
};

const PATTERN_HEAD = ['pattern', 'description', 'routePartitionName'];
const DIGIT_ORDER = [
  'blockEnable',
  'calledPartyTransformationMask',
  'callingPartyTransformationMask',
  'patternUrgency',
  'prefixDigitsOut',
];

const digitFields: FieldSpec[] = [
  bool('blockEnable', 'blockenable'),
  text('calledPartyTransformationMask', 'calledpartytransformationmask'),
  text('callingPartyTransformationMask', 'callingpartytransformationmask'),
  bool('patternUrgency', 'patternurgency'),
  text('prefixDigitsOut', 'prefixdigitsout'),
];

export const routePatternFamily: Family = patternFamily({
  name: 'RoutePattern',
  tag: 'routePattern',
  label: 'Route Pattern',
  usage: PATTERN_USAGE.route,
  fields: [
    ...digitFields,
    bool('authorizationCodeRequired', 'authorizationrequired'),
    text('authorizationLevelRequired', 'authorizationlevelrequired'),
  ],
  nested: [destination],
  order: [...PATTERN_HEAD, ...DIGIT_ORDER, 'destination'],
});

export const transPatternFamily: Family = patternFamily({
  name: 'TransPattern',
  tag: 'transPattern',
  label: 'Translation Pattern',
  usage: PATTERN_USAGE.translation,
  fields: [
    { axl: 'usage', type: 'fixed', value: 'Translation', skipIn: ['update'] },
    ...digitFields,
    fk('callingSearchSpaceName', 'fkcallingsearchspace_translation', 'callingsearchspace'),
  ],
  order: ['pattern', 'description', 'usage', 'routePartitionName'],
});

export const huntPilotFamily: Family = patternFamily({
  name: 'HuntPilot',
  tag: 'huntPilot',
  label: 'Hunt Pilot',
  usage: PATTERN_USAGE.huntPilot,
  fields: [...digitFields, text('alertingName', 'alertingname')],
  nested: [huntListName],
  order: [...PATTERN_HEAD, ...DIGIT_ORDER, 'huntListName', 'alertingName'],
});

export const callParkFamily: Family = patternFamily({
  name: 'CallPark',
  tag: 'callPark',
  label: 'Call Park',
  usage: PATTERN_USAGE.callPark,
  fields: [fk('callManagerName', 'fkcallmanager', 'callmanager')],
});

export const directedCallParkFamily: Family = patternFamily({
  name: 'DirectedCallPark',
  tag: 'directedCallPark',
  label: 'Directed Call Park',
  usage: PATTERN_USAGE.directedCallPark,
  fields: [],
  ops: [...CRUD, 'apply', 'reset'],
});

export const meetMeFamily: Family = patternFamily({
  name: 'MeetMe',
  tag: 'meetMe',
  label: 'Meet-Me Number/Pattern',
  usage: PATTERN_USAGE.conference,
  fields: [],
});

export const callingPartyTransformationFamily: Family = patternFamily({
  name: 'CallingPartyTransformationPattern',
  tag: 'callingPartyTransformationPattern',
  label: 'Calling Party Transformation Pattern',
  usage: PATTERN_USAGE.callingTransformation,
  fields: [text('callingPartyTransformationMask', 'callingpartytransformationmask')],
});

export const calledPartyTransformationFamily: Family = patternFamily({
  name: 'CalledPartyTransformationPattern',
  tag: 'calledPartyTransformationPattern',
  label: 'Called Party Transformation Pattern',
  usage: PATTERN_USAGE.calledTransformation,
  fields: [text('calledPartyTransformationMask', 'calledpartytransformationmask')],
});

export const PATTERN_FAMILIES: readonly Family[] = [
  routePatternFamily,
  transPatternFamily,
  huntPilotFamily,
  callParkFamily,
  directedCallParkFamily,
  meetMeFamily,
  callingPartyTransformationFamily,
  calledPartyTransformationFamily,
];
