import type { Family } from '../family.ts';
import { CRUD, descriptionField, enumField, fk, named, nameField, text } from './builder.ts';
import { CLASS_ROUTE_LIST, HUNT_LIST_MODEL, ROUTE_LIST_MODEL } from './device-kinds.ts';
import { memberList } from './members.ts';

/** typedistributealgorithm, by the names of the AXL XDistributeAlgorithm enumeration. */
const DISTRIBUTION: Readonly<Record<string, string>> = {
  '1': 'Top Down',
  '2': 'Circular',
  '3': 'Longest Idle Time',
  '4': 'Broadcast',
};

const cmGroup = fk('callManagerGroupName', 'fkcallmanagergroup', 'callmanagergroup');

/** Route lists and hunt lists are devices in CUCM (class Route List); the model tells them apart. */
export const routeListFamily: Family = named({
  name: 'RouteList',
  tag: 'routeList',
  label: 'Route List',
  table: 'device',
  where: { tkclass: CLASS_ROUTE_LIST, tkmodel: ROUTE_LIST_MODEL, tkproduct: ROUTE_LIST_MODEL },
  fields: [nameField, descriptionField, cmGroup],
  nested: [
    memberList({
      table: 'routelist',
      owner: 'fkdevice',
      order: 'selectionorder',
      parts: [
        { axl: 'routeGroupName', column: 'fkroutegroup', fk: { table: 'routegroup', display: 'name' } },
        { axl: 'selectionOrder', column: 'selectionorder' },
      ],
    }),
  ],
  search: ['name', 'description'],
  ops: [...CRUD, 'apply', 'reset'],
});

export const huntListFamily: Family = named({
  name: 'HuntList',
  tag: 'huntList',
  label: 'Hunt List',
  table: 'device',
  where: { tkclass: CLASS_ROUTE_LIST, tkmodel: HUNT_LIST_MODEL, tkproduct: HUNT_LIST_MODEL },
  order: ['description', 'callManagerGroupName', 'members', 'name'],
  fields: [descriptionField, cmGroup, nameField],
  nested: [
    memberList({
      table: 'routelist',
      owner: 'fkdevice',
      order: 'selectionorder',
      parts: [
        { axl: 'lineGroupName', column: 'fklinegroup', fk: { table: 'linegroup', display: 'name' } },
        { axl: 'selectionOrder', column: 'selectionorder' },
      ],
    }),
  ],
  search: ['name', 'description'],
  ops: [...CRUD, 'apply', 'reset'],
});

export const routeGroupFamily: Family = named({
  name: 'RouteGroup',
  tag: 'routeGroup',
  label: 'Route Group',
  table: 'routegroup',
  order: ['distributionAlgorithm', 'members', 'name'],
  fields: [enumField('distributionAlgorithm', 'tkdistributealgorithm', DISTRIBUTION), nameField],
  nested: [
    memberList({
      table: 'routegroupdevicemap',
      owner: 'fkroutegroup',
      order: 'deviceselectionorder',
      parts: [
        { axl: 'deviceSelectionOrder', column: 'deviceselectionorder' },
        { axl: 'deviceName', column: 'fkdevice', fk: { table: 'device', display: 'name' } },
        { axl: 'port', column: 'port' },
      ],
    }),
  ],
});

export const lineGroupFamily: Family = named({
  name: 'LineGroup',
  tag: 'lineGroup',
  label: 'Line Group',
  table: 'linegroup',
  order: ['distributionAlgorithm', 'rnaReversionTimeOut', 'members', 'name'],
  fields: [
    enumField('distributionAlgorithm', 'tkdistributealgorithm', DISTRIBUTION),
    text('rnaReversionTimeOut', 'rnareversiontimeout'),
    nameField,
  ],
  nested: [
    memberList({
      table: 'linegroupnumplanmap',
      owner: 'fklinegroup',
      order: 'lineselectionorder',
      parts: [
        { axl: 'lineSelectionOrder', column: 'lineselectionorder' },
        { axl: 'directoryNumber', column: 'fknumplan', dirn: true },
      ],
    }),
  ],
});

export const ROUTING_FAMILIES: readonly Family[] = [
  routeListFamily,
  huntListFamily,
  routeGroupFamily,
  lineGroupFamily,
];
