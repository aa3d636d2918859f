// The read-only views of Unity Connection's directory database (unitydirdb) that the lab's CLI reads
// with `run cuc dbquery unitydirdb select ...` (and lists with `show cuc dbview list`). They are
// computed from the CUPI store on every call, so the CLI and CUPI always agree (a PIN changed through
// CUPI shows here at once). Only the views the audit and the CLI guide use exist; columns are
// lower-case as Informix prints them and flags are 0/1. No view carries a credential itself (the PIN
// or password hash), only its flags.
import { Database } from '../informix/database.ts';
import type { DbRows, UnityDirDb } from '../vos/facts.ts';
import type { CupiObject, CupiStore } from './cupi/store.ts';

const flag = (v: string | undefined): string => (v === 'true' ? '1' : '0');

/** Credential type 4 is the voicemail PIN (3 would be the web application password). */
const PIN_TYPE = '4';

function credentials(store: CupiStore): DbRows {
  return {
    columns: [
      'userobjectid',
      'credentialtype',
      'credmustchange',
      'doesntexpire',
      'locked',
      'hackcount',
      'timechanged',
    ],
    rows: [...store.pins.entries()].map(([userId, p]) => [
      userId,
      PIN_TYPE,
      flag(p.CredMustChange),
      flag(p.DoesntExpire),
      flag(p.Locked),
      p.HackCount,
      p.TimeChanged,
    ]),
  };
}

function policies(store: CupiStore): DbRows {
  const held: CupiObject[] = [...store.userRoles.values()].flat();
  return {
    columns: ['objectid', 'userobjectid', 'alias', 'roleobjectid', 'rolename'],
    rows: held.map((r) => [
      r.ObjectId ?? null,
      r.UserObjectId ?? null,
      r.Alias ?? null,
      r.RoleObjectId ?? null,
      r.RoleName ?? null,
    ]),
  };
}

function restrictionTables(store: CupiStore): DbRows {
  return {
    columns: ['objectid', 'displayname', 'mindigits', 'maxdigits'],
    rows: [...store.collection('restrictiontables').items.values()].map((t) => [
      t.ObjectId ?? null,
      t.DisplayName ?? null,
      t.MinDigits ?? null,
      t.MaxDigits ?? null,
    ]),
  };
}

function restrictionPatterns(store: CupiStore): DbRows {
  return {
    columns: ['objectid', 'restrictiontableobjectid', 'sequencenumber', 'blocked', 'numberpattern'],
    rows: [...store.restrictionPatterns.values()]
      .flat()
      .map((p) => [
        p.ObjectId ?? null,
        p.RestrictionTableObjectId ?? null,
        p.SequenceNumber ?? null,
        flag(p.Blocked),
        p.NumberPattern ?? null,
      ]),
  };
}

const VIEWS: Record<string, (store: CupiStore) => DbRows> = {
  vw_credential: credentials,
  vw_policy: policies,
  vw_restrictionpattern: restrictionPatterns,
  vw_restrictiontable: restrictionTables,
};

/** The views of the lab node's unitydirdb, for its NodeFacts. */
export function unityDirDb(store: CupiStore): UnityDirDb {
  const view = (name: string): DbRows | undefined => {
    const key = name.toLowerCase();
    return Object.hasOwn(VIEWS, key) ? VIEWS[key]?.(store) : undefined;
  };
  return {
    views: () => Object.keys(VIEWS).sort(),
    view,
    // A read-only snapshot for one query: the views as tables of the lab's Informix engine, so
    // `run cuc dbquery` answers the same SQL (and the same -217/-206 faults) as a real node would.
    database: () => {
      const names = Object.keys(VIEWS);
      const rows = names.map((n) => [n, view(n) as DbRows] as const);
      const db = new Database(rows.map(([name, r]) => ({ name, columns: r.columns })));
      for (const [name, r] of rows)
        for (const row of r.rows)
          db.insert(name, Object.fromEntries(r.columns.map((c, i) => [c, row[i] ?? null])));
      return db;
    },
  };
}
