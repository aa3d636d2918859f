import type { Database, Row } from '../../../informix/database.ts';
import type { XmlValue } from '../../../xml/parse.ts';
import { asArray, childText, isObject, textOf } from '../../../xml/parse.ts';
import { setCredential } from '../../db/credentials.ts';
import { CREDENTIAL_PASSWORD, CREDENTIAL_PIN, USER_CONTROLS_DEVICE } from '../../db/schema.ts';
import type { Family, NestedSpec } from '../family.ts';
import { AxlFault } from '../fault.ts';

/** A write-only secret: stored as a credential digest, never returned by get or list. */
function secret(name: string, kind: string, owner: 'fkenduser' | 'fkapplicationuser'): NestedSpec {
  return {
    skipIn: ['list'],
    shape: { name },
    write(db, row, value) {
      const text = textOf(value) ?? '';
      if (text === '') return;
      const id = row.pkid as string;
      setCredential(db, owner === 'fkenduser' ? { fkenduser: id } : { fkapplicationuser: id }, kind, text);
    },
  };
}

function groups(
  mapTable: 'enduserdirgroupmap' | 'applicationuserdirgroupmap',
  owner: 'fkenduser' | 'fkapplicationuser',
): NestedSpec {
  return {
    skipIn: ['list'],
    shape: {
      name: 'associatedGroups',
      children: [{ name: 'userGroup', repeated: true, children: [{ name: 'name' }] }],
    },
    read(db, row) {
      const names = db
        .table(mapTable)
        .filter((m) => m[owner] === row.pkid)
        .map((m) => db.table('dirgroup').byPkid(m.fkdirgroup)?.name ?? '');
      return names.length === 0 ? null : { userGroup: names.map((name) => ({ name })) };
    },
    write(db, row, value) {
      for (const m of db.table(mapTable).filter((x) => x[owner] === row.pkid)) db.delete(mapTable, m);
      if (!isObject(value)) return;
      for (const g of asArray(value.userGroup)) {
        const name = childText(g, 'name') ?? '';
        const group = db.table('dirgroup').findBy('name', name);
        if (!group)
          throw new AxlFault(5007, `Item not valid: The specified user group ${name} was not found`);
        db.insert(mapTable, { [owner]: row.pkid, fkdirgroup: group.pkid });
      }
    },
  };
}

function deviceNames(value: XmlValue): string[] {
  return isObject(value) ? asArray(value.device).map((d) => textOf(d) ?? '') : [];
}

const associatedDevices: NestedSpec = {
  skipIn: ['list'],
  shape: { name: 'associatedDevices', children: [{ name: 'device', repeated: true }] },
  read(db, row) {
    const names = db
      .table('enduserdevicemap')
      .filter((m) => m.fkenduser === row.pkid && m.tkuserassociation === USER_CONTROLS_DEVICE)
      .map((m) => db.table('device').byPkid(m.fkdevice)?.name ?? '');
    return names.length === 0 ? null : { device: names };
  },
  write(db: Database, row: Row, value: XmlValue) {
    const maps = db.table('enduserdevicemap');
    for (const m of maps.filter(
      (x) => x.fkenduser === row.pkid && x.tkuserassociation === USER_CONTROLS_DEVICE,
    )) {
      db.delete('enduserdevicemap', m);
    }
    for (const name of deviceNames(value)) {
      const device = db.table('device').findBy('name', name);
      if (!device) throw new AxlFault(5007, `Item not valid: The specified device ${name} was not found`);
      db.insert('enduserdevicemap', {
        fkenduser: row.pkid,
        fkdevice: device.pkid,
        tkuserassociation: USER_CONTROLS_DEVICE,
      });
    }
  },
};

export const userFamily: Family = {
  name: 'User',
  tag: 'user',
  label: 'User',
  table: 'enduser',
  keys: ['userid'],
  rename: { element: 'newUserid', field: 'userid' },
  order: [
    'firstName',
    'displayName',
    'middleName',
    'lastName',
    'userid',
    'password',
    'pin',
    'mailid',
    'department',
    'associatedDevices',
    'associatedGroups',
    'enableMobility',
    'imAndPresenceEnable',
    'directoryUri',
    'telephoneNumber',
    'title',
  ],
  fields: [
    { axl: 'firstName', column: 'firstname' },
    { axl: 'displayName', column: 'displayname', skipIn: ['list'] },
    { axl: 'middleName', column: 'middlename' },
    { axl: 'lastName', column: 'lastname' },
    { axl: 'userid', column: 'userid' },
    { axl: 'mailid', column: 'mailid' },
    { axl: 'department', column: 'department' },
    { axl: 'title', column: 'title' },
    { axl: 'telephoneNumber', column: 'telephonenumber' },
    { axl: 'directoryUri', column: 'directoryuri' },
    { axl: 'enableMobility', column: 'enablemobility', type: 'bool' },
    { axl: 'imAndPresenceEnable', column: 'enablecups', type: 'bool' },
  ],
  nested: [
    secret('password', CREDENTIAL_PASSWORD, 'fkenduser'),
    secret('pin', CREDENTIAL_PIN, 'fkenduser'),
    associatedDevices,
    groups('enduserdirgroupmap', 'fkenduser'),
  ],
  required: ['userid', 'lastName'],
  search: ['firstName', 'lastName', 'userid', 'department'],
  ops: ['get', 'list', 'add', 'update', 'remove'],
};

export const appUserFamily: Family = {
  name: 'AppUser',
  tag: 'appUser',
  label: 'Application User',
  table: 'applicationuser',
  keys: ['userid'],
  rename: { element: 'newUserid', field: 'userid' },
  fields: [
    // XAppUser has no description (the applicationuser column stays for SQL).
    { axl: 'userid', column: 'name' },
  ],
  nested: [
    secret('password', CREDENTIAL_PASSWORD, 'fkapplicationuser'),
    groups('applicationuserdirgroupmap', 'fkapplicationuser'),
  ],
  required: ['userid'],
  search: ['userid'],
  ops: ['get', 'list', 'add', 'update', 'remove'],
};

export const credentialPolicyFamily: Family = {
  name: 'CredentialPolicy',
  tag: 'credentialPolicy',
  label: 'Credential Policy',
  table: 'credentialpolicy',
  keys: ['name'],
  rename: { element: 'newName', field: 'name' },
  fields: [
    { axl: 'name', column: 'displayname' },
    { axl: 'failedLogon', column: 'failedlogon' },
    { axl: 'resetFailedLogonAttempts', column: 'resetfailedlogonminutes' },
    { axl: 'lockoutDuration', column: 'lockoutduration' },
    { axl: 'credChangeDuration', column: 'credchangeduration' },
    { axl: 'credExpiresAfter', column: 'credexpiresafterdays' },
    { axl: 'minCredLength', column: 'minimumlength' },
    { axl: 'prevCredStoredNum', column: 'previouscredstostore' },
    { axl: 'inactiveDaysAllowed', column: 'inactivedaysallowed' },
    { axl: 'expiryWarningDays', column: 'expirywarningdays' },
    { axl: 'trivialCredCheck', column: 'trivialcredcheck', type: 'bool' },
    { axl: 'minCharsToChange', column: 'mincharstochange' },
  ],
  required: ['name'],
  search: ['name'],
  ops: ['get', 'list', 'add', 'update', 'remove'],
};
