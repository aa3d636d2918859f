import { textOf } from '../../../xml/parse.ts';
import type { Family, NestedSpec } from '../family.ts';
import { bool, enumField, named, nameField, text } from './builder.ts';
import { ldapServers } from './ldap-servers.ts';

/** typeldapserver, by the names of the AXL XLdapServer enumeration. */
const LDAP_SERVERS: Readonly<Record<string, string>> = {
  '0': 'Microsoft Active Directory',
  '1': 'Sun or Oracle Directory Server',
  '2': 'OpenLDAP',
  '3': 'Microsoft ADAM or Lightweight Directory Services',
  '4': 'Other LDAPv3 Compliant Directory',
};

/** A bind password: written, never read back (the lab keeps no secret it would then show). */
function ldapPassword(table: string): NestedSpec {
  return {
    skipIn: ['list'],
    shape: { name: 'ldapPassword' },
    write(db, row, value, operation) {
      const password = textOf(value) ?? '';
      if (operation === 'update' && password === '') return;
      db.update(table, row, { ldappassword: password });
    },
  };
}

export const ldapDirectoryFamily: Family = named({
  name: 'LdapDirectory',
  tag: 'ldapDirectory',
  label: 'LDAP Directory',
  table: 'directorypluginconfig',
  order: ['name', 'ldapDn', 'ldapPassword', 'userSearchBase'],
  fields: [
    nameField,
    text('ldapDn', 'ldapdn'),
    text('userSearchBase', 'usersearchbase'),
    text('intervalValue', 'syncinterval'),
    text('scheduleUnit', 'scheduleunit'),
    text('nextExecTime', 'nextexectime'),
  ],
  nested: [
    ldapPassword('directorypluginconfig'),
    ldapServers('directorypluginhost', 'fkdirectorypluginconfig'),
  ],
  search: ['name', 'ldapDn', 'userSearchBase'],
});

export const ldapSystemFamily: Family = {
  name: 'LdapSystem',
  tag: 'ldapSystem',
  label: 'LDAP System',
  table: 'ldapsystemconfig',
  singleton: true,
  keys: [],
  fields: [
    bool('syncEnabled', 'syncenabled'),
    enumField('ldapServer', 'tkldapserver', LDAP_SERVERS),
    text('userIdAttribute', 'useridattribute'),
  ],
  required: [],
  search: [],
  ops: ['get', 'update'],
};

export const ldapAuthenticationFamily: Family = {
  name: 'LdapAuthentication',
  tag: 'ldapAuthentication',
  label: 'LDAP Authentication',
  table: 'ldapauthentication',
  singleton: true,
  keys: [],
  fields: [
    bool('authenticateEndUsers', 'authenticateendusers'),
    text('distinguishedName', 'distinguishedname'),
    text('userSearchBase', 'usersearchbase'),
  ],
  nested: [ldapPassword('ldapauthentication'), ldapServers('ldapauthenticationhost', 'fkldapauthentication')],
  required: [],
  search: [],
  ops: ['get', 'update'],
};

export const LDAP_FAMILIES: readonly Family[] = [
  ldapDirectoryFamily,
  ldapSystemFamily,
  ldapAuthenticationFamily,
];
