import type { TableSchema } from '../../informix/database.ts';

/**
 * The LDAP servers of a directory and of LDAP authentication, one row per server (up to three, as in
 * AXL's `servers/server`). `directorypluginhost` is a table of the CUCM data dictionary; its columns and
 * the whole of `ldapauthenticationhost` are lab names (the audit reads LDAP authentication through AXL
 * getLdapAuthentication, whose names the AXL 15 schema confirms).
 */
export const HARDENING_TABLES: readonly TableSchema[] = [
  {
    name: 'directorypluginhost',
    columns: ['pkid', 'fkdirectorypluginconfig', 'hostname', 'portnumber', 'sslenabled', 'priority'],
    references: { fkdirectorypluginconfig: { table: 'directorypluginconfig', onDelete: 'cascade' } },
    defaults: { portnumber: '389', sslenabled: 'f', priority: '1' },
  },
  {
    name: 'ldapauthenticationhost',
    columns: ['pkid', 'fkldapauthentication', 'hostname', 'portnumber', 'sslenabled', 'priority'],
    references: { fkldapauthentication: { table: 'ldapauthentication', onDelete: 'cascade' } },
    defaults: { portnumber: '389', sslenabled: 'f', priority: '1' },
  },
];
