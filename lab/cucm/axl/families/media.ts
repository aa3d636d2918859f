import type { Family, FieldSpec } from '../family.ts';
import { bool, CRUD, descriptionField, fk, named, nameField } from './builder.ts';
import {
  CLASS_CONFERENCE_BRIDGE,
  CLASS_CTI_ROUTE_POINT,
  CLASS_MTP,
  CONFERENCE_BRIDGE_MODEL,
  CTI_ROUTE_POINT_MODEL,
  DEVICE_KIND_MODELS,
  MTP_MODEL,
  TRANSCODER_MODEL,
} from './device-kinds.ts';
import { memberList } from './members.ts';

const devicePool = fk('devicePoolName', 'fkdevicepool', 'devicepool');

/** What a device is, fixed by its family and not changed by update. */
function fixed(axl: string, value: string): FieldSpec {
  return { axl, type: 'fixed', value, skipIn: ['update'] };
}

function deviceWhere(tkclass: string, model: string) {
  return { tkclass, tkmodel: model, tkproduct: model };
}

export const ctiRoutePointFamily: Family = named({
  name: 'CtiRoutePoint',
  tag: 'ctiRoutePoint',
  label: 'CTI Route Point',
  table: 'device',
  where: deviceWhere(CLASS_CTI_ROUTE_POINT, CTI_ROUTE_POINT_MODEL),
  fields: [
    nameField,
    descriptionField,
    fixed('product', DEVICE_KIND_MODELS[CTI_ROUTE_POINT_MODEL] as string),
    fixed('class', 'CTI Route Point'),
    fixed('protocol', 'SCCP'),
    fixed('protocolSide', 'User'),
    fk('callingSearchSpaceName', 'fkcallingsearchspace', 'callingsearchspace'),
    devicePool,
  ],
  required: ['name', 'devicePoolName'],
  search: ['name', 'description', 'callingSearchSpaceName', 'devicePoolName'],
  ops: [...CRUD, 'apply', 'reset', 'restart'],
});

export const conferenceBridgeFamily: Family = named({
  name: 'ConferenceBridge',
  tag: 'conferenceBridge',
  label: 'Conference Bridge',
  table: 'device',
  where: deviceWhere(CLASS_CONFERENCE_BRIDGE, CONFERENCE_BRIDGE_MODEL),
  fields: [
    nameField,
    descriptionField,
    fixed('product', DEVICE_KIND_MODELS[CONFERENCE_BRIDGE_MODEL] as string),
    devicePool,
  ],
  required: ['name', 'devicePoolName'],
  search: ['name', 'description', 'devicePoolName'],
  ops: [...CRUD, 'apply', 'reset', 'restart'],
});

export const transcoderFamily: Family = named({
  name: 'Transcoder',
  tag: 'transcoder',
  label: 'Transcoder',
  table: 'device',
  where: deviceWhere(CLASS_MTP, TRANSCODER_MODEL),
  fields: [
    nameField,
    descriptionField,
    fixed('product', DEVICE_KIND_MODELS[TRANSCODER_MODEL] as string),
    devicePool,
  ],
  required: ['name', 'devicePoolName'],
  search: ['name', 'description'],
  ops: [...CRUD, 'apply', 'reset'],
});

export const mtpFamily: Family = named({
  name: 'Mtp',
  tag: 'mtp',
  label: 'Media Termination Point',
  table: 'device',
  where: deviceWhere(CLASS_MTP, MTP_MODEL),
  fields: [
    fixed('mtpType', DEVICE_KIND_MODELS[MTP_MODEL] as string),
    nameField,
    descriptionField,
    devicePool,
  ],
  required: ['name', 'devicePoolName'],
  search: ['name', 'description', 'devicePoolName'],
  ops: [...CRUD, 'apply', 'reset', 'restart'],
});

export const mediaResourceGroupFamily: Family = named({
  name: 'MediaResourceGroup',
  tag: 'mediaResourceGroup',
  label: 'Media Resource Group',
  table: 'mediaresourcegroup',
  fields: [nameField, descriptionField, bool('multicast', 'multicast')],
  nested: [
    memberList({
      table: 'mediaresourcegroupmember',
      owner: 'fkmediaresourcegroup',
      parts: [{ axl: 'deviceName', column: 'fkdevice', fk: { table: 'device', display: 'name' } }],
    }),
  ],
  search: ['name', 'description'],
});

export const mediaResourceListFamily: Family = named({
  name: 'MediaResourceList',
  tag: 'mediaResourceList',
  label: 'Media Resource Group List',
  table: 'mediaresourcelist',
  fields: [nameField],
  nested: [
    memberList({
      table: 'mediaresourcelistmember',
      owner: 'fkmediaresourcelist',
      order: 'sortorder',
      parts: [
        {
          axl: 'mediaResourceGroupName',
          column: 'fkmediaresourcegroup',
          fk: { table: 'mediaresourcegroup', display: 'name' },
        },
        { axl: 'order', column: 'sortorder' },
      ],
    }),
  ],
});

export const MEDIA_FAMILIES: readonly Family[] = [
  ctiRoutePointFamily,
  conferenceBridgeFamily,
  transcoderFamily,
  mtpFamily,
  mediaResourceGroupFamily,
  mediaResourceListFamily,
];
