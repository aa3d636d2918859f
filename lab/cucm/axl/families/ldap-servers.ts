import type { Database, Row } from '../../../informix/database.ts';
import { asArray, childText, isObject } from '../../../xml/parse.ts';
import type { NestedSpec } from '../family.ts';

/**
 * The `servers/server` part of an LDAP object (hostName, ldapPortNumber, sslEnabled, as the AXL 15
 * schema names them), kept one row per server in `table` under the owner's pkid.
 */
export function ldapServers(table: string, owner: string): NestedSpec {
  return {
    skipIn: ['list'],
    shape: {
      name: 'servers',
      children: [
        {
          name: 'server',
          repeated: true,
          children: [{ name: 'hostName' }, { name: 'ldapPortNumber' }, { name: 'sslEnabled' }],
        },
      ],
    },
    read(db: Database, row: Readonly<Row>) {
      const rows = [...db.table(table).lookup(owner, row.pkid)].sort(
        (a, b) => Number(a.priority) - Number(b.priority),
      );
      if (rows.length === 0) return null;
      return {
        server: rows.map((h) => ({
          hostName: h.hostname ?? '',
          ldapPortNumber: h.portnumber ?? '',
          sslEnabled: h.sslenabled === 't' ? 'true' : 'false',
        })),
      };
    },
    write(db: Database, row: Row, value) {
      for (const h of [...db.table(table).lookup(owner, row.pkid)]) db.delete(table, h);
      if (!isObject(value)) return;
      asArray(value.server).forEach((s, i) => {
        db.insert(table, {
          [owner]: row.pkid ?? null,
          hostname: childText(s, 'hostName') ?? '',
          portnumber: childText(s, 'ldapPortNumber') ?? '389',
          sslenabled: /^(true|t|1)$/i.test(childText(s, 'sslEnabled') ?? '') ? 't' : 'f',
          priority: String(i + 1),
        });
      });
    },
  };
}
