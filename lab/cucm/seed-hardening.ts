import type { Database, Row } from '../informix/database.ts';
import type { LabSeeding } from '../weaknesses/index.ts';
import { AXL_INTEGRATION_GROUP } from './db/roles.ts';

/**
 * A common phone profile's product-specific settings, as the XML CUCM keeps them in commonphoneconfigxml
 * (the vendorConfig element names). 0/1 as phone configuration files carry them: webAccess, pcPort,
 * spanToPCPort and garp are "disable" flags (0 = enabled); settingsAccess 1 = enabled, 0 = disabled.
 */
function vendorConfig(weak: (setting: string) => boolean): string {
  const v = (setting: string, weakValue: string, hardValue: string): string =>
    `<${setting}>${weak(setting) ? weakValue : hardValue}</${setting}>`;
  return [
    '<vendorConfig>',
    '<disableSpeaker>false</disableSpeaker>',
    v('pcPort', '0', '1'),
    v('settingsAccess', '1', '0'),
    v('garp', '0', '1'),
    '<voiceVlanAccess>1</voiceVlanAccess>',
    v('webAccess', '0', '1'),
    v('spanToPCPort', '0', '1'),
    '<sshAccess>1</sshAccess>',
    '</vendorConfig>',
  ].join('');
}

/**
 * The weakness that weakens each setting on the common phone profile the phones use. Phone-specific
 * overrides are not seeded: the audit does not read them (a real node keeps them per device, readable
 * one phone at a time).
 */
const ON_PROFILE: Record<string, string> = {
  webAccess: 'cucm-phone-web-access',
  settingsAccess: 'cucm-phone-settings-access',
  pcPort: 'cucm-phone-pc-port',
  spanToPCPort: 'cucm-phone-span-to-pc',
  garp: 'cucm-phone-garp',
};

const CTI_ALL_DEVICES = 'Standard CTI Allow Control of All Devices';

/**
 * The hardening data of the CUCM publisher (phone settings, LDAP over TLS, who holds CTI control of
 * every device and AXL access), each weakened only where its id (lab/weaknesses/cucm.ts) is seeded.
 * Runs after the rest of the seeding: it gives the common phone profiles their settings and updates the LDAP rows it finds.
 */
export function seedHardening(db: Database, seeding: LabSeeding): void {
  const has = (id: string | undefined): boolean => id !== undefined && seeding.weaknesses.has(id);

  for (const p of [...db.table('commonphoneconfig').rows] as Row[])
    db.insert('commonphoneconfigxml', {
      fkcommonphoneconfig: String(p.pkid),
      xml: vendorConfig((s) => has(ON_PROFILE[s])),
    });

  // LDAP authentication of end users and the directory synchronisation, both against two servers.
  for (const auth of [...db.table('ldapauthentication').rows] as Row[]) {
    db.update('ldapauthentication', auth, {
      authenticateendusers: 't',
      distinguishedname: 'CN=svc-cucm,OU=Service,DC=lab,DC=example,DC=com',
      usersearchbase: 'OU=Users,DC=lab,DC=example,DC=com',
    });
    ldapHosts(db, 'ldapauthenticationhost', 'fkldapauthentication', auth.pkid, has('cucm-ldap-auth-no-tls'));
  }
  for (const dir of [...db.table('directorypluginconfig').rows] as Row[])
    ldapHosts(
      db,
      'directorypluginhost',
      'fkdirectorypluginconfig',
      dir.pkid,
      has('cucm-ldap-directory-no-tls'),
    );

  // The groups and the roles they carry are seeded with the users (db/roles.ts): a group made here
  // would carry no role.
  const group = (name: string): string => {
    const found = db.table('dirgroup').lookup('name', name)[0];
    if (!found) throw new Error(`lab seed: no access control group ${name}`);
    return String(found.pkid);
  };
  const enduser = (userid: string): string | undefined => {
    const u = db.table('enduser').lookup('userid', userid)[0];
    return u ? String(u.pkid) : undefined;
  };
  const member = (userid: string, groupName: string): void => {
    const fkenduser = enduser(userid);
    if (fkenduser) db.insert('enduserdirgroupmap', { fkenduser, fkdirgroup: group(groupName) });
  };
  // A user whose softphone integration was given control of every device instead of its own.
  if (has('cucm-cti-control-all-devices')) member('rjones', CTI_ALL_DEVICES);
  // A person's own account with AXL rights, used for scripts: put in the integration's custom group,
  // which carries the Standard AXL API Access role.
  if (has('cucm-enduser-axl-access')) member('mlee', AXL_INTEGRATION_GROUP.name);
}

function ldapHosts(db: Database, table: string, owner: string, pkid: unknown, clear: boolean): void {
  ['dc1.lab.example.com', 'dc2.lab.example.com'].forEach((hostname, i) =>
    db.insert(table, {
      [owner]: String(pkid),
      hostname,
      portnumber: clear ? '389' : '636',
      sslenabled: clear ? 'f' : 't',
      priority: String(i + 1),
    }),
  );
}
