// Roles and the access control groups that carry them. On Unified CM a user holds a role only through a
// group mapped to it (functionroledirgroupmap -> functionrole): "Standard AXL API Access" is a role, not
// a group, and its only standard group is Standard CCM Super Users (System Configuration Guide 12.5(1),
// "Standard Roles and Access Control Groups"). The AXL FAQ's advice, followed by the lab's integration
// account: a custom group carrying Standard AXL API Access and Standard CCM Admin Users.
import type { Database } from '../../informix/database.ts';

export const AXL_ROLE = 'Standard AXL API Access';
export const CTI_ALL_DEVICES_ROLE = 'Standard CTI Allow Control of All Devices';

/**
 * The standard groups the lab seeds and the standard roles each carries, from Cisco's table (only the
 * roles the lab's services authorise against or the audit reads are listed; the real groups carry more).
 */
export const STANDARD_GROUP_ROLES: Readonly<Record<string, readonly string[]>> = {
  'Standard CCM Super Users': [AXL_ROLE, 'Standard CCM Admin Users'],
  'Standard CCM End Users': ['Standard CCM End Users'],
  'Standard RealtimeAndTraceCollection': ['Standard RealtimeAndTraceCollection'],
  'Standard CTI Enabled': ['Standard CTI Enabled'],
  [CTI_ALL_DEVICES_ROLE]: [CTI_ALL_DEVICES_ROLE],
};

/** The custom group of the lab's AXL integration account: the two roles the AXL FAQ names as the minimum. */
export const AXL_INTEGRATION_GROUP = {
  name: 'AXL API Users',
  roles: [AXL_ROLE, 'Standard CCM Admin Users'],
} as const;

function rolePkid(db: Database, name: string): string {
  const found = db.table('functionrole').findBy('name', name);
  return String((found ?? db.insert('functionrole', { name })).pkid);
}

/** Creates an access control group carrying `roles` (each role created once) and returns its pkid. */
export function addAccessGroup(
  db: Database,
  name: string,
  roles: readonly string[],
  standard: boolean,
): string {
  const group = db.insert('dirgroup', { name, isstandard: standard ? 't' : 'f' });
  for (const role of roles)
    db.insert('functionroledirgroupmap', { fkfunctionrole: rolePkid(db, role), fkdirgroup: group.pkid });
  return String(group.pkid);
}

/** The standard groups above and the AXL integration group; returns each group's pkid by name. */
export function seedAccessGroups(db: Database): Map<string, string> {
  const groups = new Map<string, string>();
  for (const [name, roles] of Object.entries(STANDARD_GROUP_ROLES))
    groups.set(name, addAccessGroup(db, name, roles, true));
  groups.set(
    AXL_INTEGRATION_GROUP.name,
    addAccessGroup(db, AXL_INTEGRATION_GROUP.name, AXL_INTEGRATION_GROUP.roles, false),
  );
  return groups;
}

export type RoleMember = { fkapplicationuser: string } | { fkenduser: string };

/** Whether the user holds `role` through any access control group it belongs to. */
export function holdsRole(db: Database, member: RoleMember, role: string): boolean {
  const role_ = db.table('functionrole').findBy('name', role);
  if (!role_) return false;
  const carrying = new Set(
    db
      .table('functionroledirgroupmap')
      .rows.filter((m) => m.fkfunctionrole === role_.pkid)
      .map((m) => m.fkdirgroup),
  );
  const [table, column, id] =
    'fkenduser' in member
      ? ['enduserdirgroupmap', 'fkenduser', member.fkenduser]
      : ['applicationuserdirgroupmap', 'fkapplicationuser', member.fkapplicationuser];
  return db.table(table).rows.some((m) => m[column] === id && carrying.has(m.fkdirgroup));
}
