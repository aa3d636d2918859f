// Who holds a role. On Unified CM a role is granted only through an access control group mapped to it
// (functionroledirgroupmap -> functionrole): a user holds "Standard AXL API Access" through Standard CCM
// Super Users, its only standard group, or through any custom group carrying it, never through a group
// of that name (Cisco's table "Standard Roles and Access Control Groups"; the AXL FAQ: "these are roles").
// So the holder checks read every group that carries the role, then the users in those groups.
import { cannotJudge, rowsOf, type EvidenceResult } from '../../_shared/audit/checklist.ts';
import { isTrue, text } from './evidence.ts';

type Results = Record<string, EvidenceResult>;

/** The groups carrying a role: group pkid -> group name. */
export type RoleGroups = ReadonlyMap<string, string>;

const same = (a: unknown, b: string): boolean => text(a).toLowerCase() === b.toLowerCase();

/**
 * The groups carrying `role` (`roleGroups` rows: rolename, fkdirgroup, groupname), or a cannot-judge
 * observation when none does: every node maps the two roles read to a standard group, so an empty answer
 * means the name did not match there, never that nobody holds the role.
 */
export function groupsCarrying(r: Results, role: string): RoleGroups | string {
  const groups = new Map(
    rowsOf(r.roleGroups)
      .filter((g) => same(g.rolename, role))
      .map((g) => [text(g.fkdirgroup), text(g.groupname)] as const),
  );
  return groups.size > 0
    ? groups
    : cannotJudge(`no access control group carries the role ${role} (the role name did not match)`);
}

export interface Holder {
  name: string;
  pkid: string;
  standard: boolean;
  /** The groups through which the user holds the role. */
  through: string[];
}

/** End users holding `role` (`endUserHolders` rows: rolename, groupname, userid), one entry per user. */
export function endUsersHolding(r: Results, role: string): Holder[] {
  const byUser = new Map<string, Holder>();
  for (const m of rowsOf(r.endUserHolders).filter((x) => same(x.rolename, role))) {
    const userid = text(m.userid);
    const holder = byUser.get(userid) ?? { name: userid, pkid: '', standard: false, through: [] };
    byUser.set(userid, holder);
    if (!holder.through.includes(text(m.groupname))) holder.through.push(text(m.groupname));
  }
  return [...byUser.values()];
}

/** Application users in any of `groups` (`appUsers` and `appUserGroups` rows), in `appUsers` order. */
export function appUsersHolding(r: Results, groups: RoleGroups): Holder[] {
  const through = new Map<string, string[]>();
  for (const m of rowsOf(r.appUserGroups)) {
    const group = groups.get(text(m.fkdirgroup));
    if (group === undefined) continue;
    const list = through.get(text(m.fkapplicationuser)) ?? [];
    through.set(text(m.fkapplicationuser), [...list, group]);
  }
  return rowsOf(r.appUsers)
    .filter((u) => through.has(text(u.pkid)))
    .map((u) => ({
      name: text(u.name),
      pkid: text(u.pkid),
      standard: isTrue(u.isstandard),
      through: through.get(text(u.pkid)) ?? [],
    }));
}

/** `end user mlee (through AXL API Users)`. */
export function describeHolder(kind: 'end user' | 'application user', h: Holder): string {
  return `${kind} ${h.name} (through ${h.through.join(', ')})`;
}
