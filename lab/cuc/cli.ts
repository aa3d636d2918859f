// Unity Connection's own CLI commands over its directory database: `show cuc dbview list`, `show cuc
// dbview contents` (which, as on a real node, writes the view to a CSV file and prints only where) and
// `run cuc dbquery`, which prints a result as the CLI Reference shows it: a header, a rule of dashes
// under each column, values padded, `null` for no value, "No records found" when empty. The profiles
// allow the auditor `run cuc dbquery unitydirdb select *` only, so the audit reads rows in one call.
import { DbError } from '../informix/database.ts';
import { runQuery } from '../informix/sql-executor.ts';
import type { DbRows } from '../vos/facts.ts';
import type { CliCommand } from '../vos/commands/types.ts';
import { failed } from '../vos/commands/types.ts';

const DATABASES = ['unitydirdb'];

/** A result as the CUC CLI prints it: columns two spaces apart, each as wide as its widest cell. */
export function dbTable(t: DbRows): string[] {
  if (t.rows.length === 0) return ['No records found'];
  const cell = (v: string | null): string => v ?? 'null';
  const widths = t.columns.map((c, i) => Math.max(c.length, ...t.rows.map((r) => cell(r[i] ?? null).length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [
    line(t.columns),
    line(widths.map((w) => '-'.repeat(w))),
    ...t.rows.map((r) => line(t.columns.map((_, i) => cell(r[i] ?? null)))),
  ];
}

function database(name: string | undefined): string | undefined {
  const db = name?.toLowerCase();
  return db !== undefined && DATABASES.includes(db) ? db : undefined;
}

/**
 * `show cuc cluster status`: each Connection server, its member id and its role in the pair. A server
 * without a partner is `Primary` in state `Pri Single Server`. Columns as Unity Connection health-check
 * notes print them; not confirmed by a stored source.
 */
function clusterStatus(hostname: string): string[] {
  return [
    'Server Name     Member ID  Server State  Internal State     Reason',
    '-----------     ---------  ------------  --------------     ------',
    `${hostname.padEnd(16)}${'0'.padEnd(11)}${'Primary'.padEnd(14)}${'Pri Single Server'.padEnd(19)}Normal`,
  ];
}

export const CUC_COMMANDS: CliCommand[] = [
  {
    words: ['show', 'cuc', 'cluster', 'status'],
    products: ['cuc'],
    run: (ctx) => ({ lines: clusterStatus(ctx.facts.hostname) }),
  },
  {
    words: ['show', 'cuc', 'dbview', 'list'],
    takesArgs: true,
    products: ['cuc'],
    run: (ctx, args) => {
      if (args.length !== 1 || !database(args[0]))
        return failed(`Usage: show cuc dbview list ${DATABASES.join('|')}`);
      return { lines: ctx.facts.unitydirdb?.views() ?? ['No records found'] };
    },
  },
  {
    words: ['show', 'cuc', 'dbview', 'contents'],
    takesArgs: true,
    products: ['cuc'],
    run: (ctx, args) => {
      const [db, view, ...rest] = args;
      if (!database(db) || !view || rest.length > 0)
        return failed(`Usage: show cuc dbview contents ${DATABASES.join('|')} <view name>`);
      if (!ctx.facts.unitydirdb?.view(view))
        return failed(`View ${view} was not found in database ${db ?? ''}`);
      // CLI Reference: "saves the results from a specified SQL view in a CSV file"; the rows are not printed.
      const at = new Date().toISOString().replace(/\D/g, '').slice(2, 14);
      return {
        lines: [`Output is in file: cuc/cli/${view.toLowerCase()}_${at.slice(0, 6)}-${at.slice(6)}.csv`],
      };
    },
  },
  {
    words: ['run', 'cuc', 'dbquery'],
    takesArgs: true,
    products: ['cuc'],
    run: (ctx, args, raw) => {
      const [db] = args;
      if (!database(db) || args.length < 2)
        return failed(`Usage: run cuc dbquery ${DATABASES.join('|')} <sql query>`);
      const sql = raw.replace(/^\s*run\s+cuc\s+dbquery\s+\S+\s+/i, '');
      const directory = ctx.facts.unitydirdb;
      if (!directory) return failed('The database is not available');
      // A real node runs updates and procedures too; the lab's views are computed, so it reads only.
      if (!/^\s*select\b/i.test(sql)) return failed('The lab unitydirdb answers SELECT queries only');
      try {
        const result = runQuery(directory.database(), sql);
        return { lines: dbTable({ columns: result.columns, rows: result.rows }) };
      } catch (err) {
        if (err instanceof DbError) return failed(`${err.code}: ${err.message}`);
        throw err;
      }
    },
  },
];
