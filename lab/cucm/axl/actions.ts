import { attrOf, childOf, childText, textOf } from '../../xml/parse.ts';
import type { OperationSpec } from '../toolkit/operations.ts';
import { el } from '../toolkit/xsd.ts';
import { pkidOf } from './family-codec.ts';
import { findRow } from './family-ops.ts';
import { ldapDirectoryFamily } from './families/ldap.ts';
import { invalidRequest, notFound } from './fault.ts';
import type { AxlOperation } from './operation.ts';

/** The values of AXL's XReset enumeration that a lab device accepts. */
const RESET_TYPES = ['Reset', 'Restart', 'Apply Configuration'];

/** doDeviceReset: any device by name or uuid (phones, trunks, gateways, media resources). */
export const doDeviceReset: AxlOperation = {
  name: 'doDeviceReset',
  write: true,
  handle(ctx, req) {
    const target = childOf(req, 'deviceName');
    const uuid = attrOf(target, 'uuid');
    const name = (textOf(target) ?? '').trim();
    if (!uuid && !name) throw invalidRequest('doDeviceReset: deviceName is required');
    const devices = ctx.db.table('device');
    const device = uuid ? devices.byPkid(pkidOf(uuid)) : devices.findBy('name', name);
    if (!device) throw notFound(`device ${name || uuid}`);
    const hard = childText(req, 'isHardReset');
    const type = childText(req, 'deviceResetType');
    if (hard === undefined && type === undefined)
      throw invalidRequest('doDeviceReset: either isHardReset or deviceResetType must be specified');
    if (type !== undefined && !RESET_TYPES.includes(type))
      throw invalidRequest(`doDeviceReset: the value "${type}" is not valid for deviceResetType`);
    const kind = type ?? (/^(true|t|1)$/i.test(hard ?? '') ? 'Reset' : 'Restart');
    ctx.log.write({
      node: ctx.node,
      via: 'axl',
      operation: `doDeviceReset ${kind}`,
      target: device.name ?? '',
    });
    // DoDeviceResetRes is documented in the 15.0 schema as returning "true" when the reset was sent.
    return { body: { return: 'true' } };
  },
};

/**
 * doLdapSync starts (sync=true) or cancels a directory's synchronisation; getLdapSyncStatus reports it.
 * The status wordings are the lab's (no public capture of them was at hand).
 */
export const doLdapSync: AxlOperation = {
  name: 'doLdapSync',
  write: true,
  handle(ctx, req) {
    const row = findRow(ctx, ldapDirectoryFamily, req);
    const sync = /^(true|t|1)$/i.test(childText(req, 'sync') ?? '');
    ctx.db.update('directorypluginconfig', row, {
      lastsyncstatus: sync ? 'Sync is performed successfully' : 'Sync is cancelled',
    });
    ctx.log.write({ node: ctx.node, via: 'axl', operation: 'doLdapSync', target: row.name ?? '' });
    return { body: { return: sync ? 'Sync initiated successfully' : 'Sync cancelled successfully' } };
  },
};

export const getLdapSyncStatus: AxlOperation = {
  name: 'getLdapSyncStatus',
  write: false,
  handle(ctx, req) {
    const row = findRow(ctx, ldapDirectoryFamily, req);
    return { body: { return: row.lastsyncstatus || 'Sync not performed' } };
  },
};

export const ACTION_OPERATIONS: readonly AxlOperation[] = [doDeviceReset, doLdapSync, getLdapSyncStatus];

const standard = [el('return', 'xsd:string', false)];
const nameOrUuid = [[el('name', 'xsd:string', false)], [el('uuid', 'axlapi:XUUID', false)]];

/** The toolkit schema of the actions, in the real schema's element names. */
export const ACTION_SPECS: readonly OperationSpec[] = [
  {
    name: 'doDeviceReset',
    request: {
      children: [el('deviceName', 'axlapi:XFkType', false)],
      choice: [[el('isHardReset', 'axlapi:boolean', false)], [el('deviceResetType', 'xsd:string', false)]],
    },
    response: standard,
  },
  {
    name: 'doLdapSync',
    request: { choice: nameOrUuid, children: [el('sync', 'axlapi:boolean', false)] },
    response: standard,
  },
  { name: 'getLdapSyncStatus', request: { choice: nameOrUuid, children: [] }, response: standard },
];
