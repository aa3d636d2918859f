// Unity Connection's own read-only CLI commands: `show cuc dbview list|contents`. They print a
// unitydirdb view the way `run cuc dbquery` prints a result (a header, a rule of dashes under each
// column, values padded, `null` for no value, "No records found" when empty), and they are `show`
// commands, so the auditor's read-only allowlist covers them.
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
      const rows = ctx.facts.unitydirdb?.view(view);
      if (!rows) return failed(`View ${view} was not found in database ${db ?? ''}`);
      return { lines: dbTable(rows) };
    },
  },
];
