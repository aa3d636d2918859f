// Objects a remove changes besides its target: CUCM deletes the rows that tie them to it (a line's
// place on phones and in line groups...), so re-adding the target alone would not bring them back.
// Found through AXL SQL before the change, their images kept so the inverse can put them back.
import type { AxlClient } from '../axl/axl-client.ts';
import type { Json } from '../axl/schema.ts';
import type { XsdModel } from '../axl/xsd-model.ts';
import type { AxlImage } from './axl-before-image.ts';
import { readAxlImage } from './axl-before-image.ts';
import type { AxlTarget } from './axl-target.ts';
import { resolveAxlTarget } from './axl-target.ts';

export interface AxlDependant {
  /** The element of the dependant the remove takes away (`lines`, `members`, `associatedDevices`). */
  field: string;
  /** The dependant, as an update of that element would name it. */
  target: AxlTarget;
  /** The dependant before the change. */
  before: AxlImage;
}

interface Rule {
  /** The removed kind (`Line`). */
  removed: string;
  /** The dependant's kind and the key its rows are found by. */
  kind: string;
  key: string;
  field: string;
  /** Rows whose `name` column is the dependant's key, for the removed object's pkid. */
  sql(pkid: string): string;
}

/**
 * Tables and columns: the CUCM Database Dictionary (public copy of release 7.1(2), OL-18717-01, "1.0
 * Tables": device, devicenumplanmap, enduser, enduserdevicemap, linegroup, linegroupnumplanmap,
 * routegroup, routegroupdevicemap, routelist); `tkclass = 1` is typeclass "Phone" there. Which links the node deletes with the removed
 * row (rather than refusing the remove) no public text at hand states: these are the mapping rows the
 * lab deletes with it, as a real node does for a phone's lines.
 */
const RULES: readonly Rule[] = [
  {
    removed: 'Line',
    kind: 'Phone',
    key: 'name',
    field: 'lines',
    sql: (p) =>
      `select d.name from devicenumplanmap m, device d where m.fkdevice = d.pkid and m.fknumplan = '${p}' and d.tkclass = 1`,
  },
  {
    removed: 'Line',
    kind: 'LineGroup',
    key: 'name',
    field: 'members',
    sql: (p) =>
      `select g.name from linegroupnumplanmap m, linegroup g where m.fklinegroup = g.pkid and m.fknumplan = '${p}'`,
  },
  {
    removed: 'RouteGroup',
    kind: 'RouteList',
    key: 'name',
    field: 'members',
    sql: (p) =>
      `select d.name from routelist r, device d where r.fkdevice = d.pkid and r.fkroutegroup = '${p}'`,
  },
  {
    removed: 'SipTrunk',
    kind: 'RouteGroup',
    key: 'name',
    field: 'members',
    sql: (p) =>
      `select g.name from routegroupdevicemap m, routegroup g where m.fkroutegroup = g.pkid and m.fkdevice = '${p}'`,
  },
  {
    removed: 'LineGroup',
    kind: 'HuntList',
    key: 'name',
    field: 'members',
    sql: (p) =>
      `select d.name from routelist r, device d where r.fkdevice = d.pkid and r.fklinegroup = '${p}'`,
  },
  {
    removed: 'Phone',
    kind: 'User',
    key: 'userid',
    field: 'associatedDevices',
    sql: (p) =>
      `select u.userid as name from enduserdevicemap m, enduser u where m.fkenduser = u.pkid and m.fkdevice = '${p}'`,
  },
];

const UUID = /^\{?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\}?$/;

/** The dependants of the object a remove targets, each with its before-image. */
export async function findAxlDependants(
  client: AxlClient,
  xsd: XsdModel,
  target: AxlTarget,
  before: AxlImage,
): Promise<AxlDependant[]> {
  if (target.kind.verb !== 'remove' || before.state !== 'present') return [];
  const rules = RULES.filter((r) => r.removed === target.kind.object);
  if (rules.length === 0) return [];
  // The pkid goes into SQL: only a well-formed uuid, as the node answered it, is used.
  const pkid = UUID.exec(before.uuid ?? '')?.[1]?.toLowerCase();
  if (!pkid) return [];
  const out: AxlDependant[] = [];
  for (const rule of rules) {
    const answer = await client.call('executeSQLQuery', { sql: rule.sql(pkid) });
    for (const name of [...new Set(rowNames(answer))].sort()) {
      const dep = resolveAxlTarget(xsd, `update${rule.kind}`, { [rule.key]: name });
      if (!('kind' in dep)) continue;
      out.push({ field: rule.field, target: dep, before: await readAxlImage(client, dep) });
    }
  }
  return out;
}

function rowNames(answer: Json): string[] {
  const ret = (answer as { return?: { row?: Json } } | null)?.return;
  const rows = ret?.row;
  const list = Array.isArray(rows) ? rows : rows ? [rows] : [];
  return list
    .map((r) => (r && typeof r === 'object' && !Array.isArray(r) ? r.name : undefined))
    .filter((n): n is string => typeof n === 'string' && n !== '');
}
