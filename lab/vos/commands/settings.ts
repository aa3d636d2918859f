import { DbError } from '../../informix/database.ts';
import { runQuery } from '../../informix/sql-executor.ts';
import type { TlsVersion } from '../state.ts';
import { sqlTable } from './format.ts';
import type { CliCommand } from './types.ts';
import { failed } from './types.ts';

const TLS_VERSIONS: TlsVersion[] = ['1.0', '1.1', '1.2', '1.3'];

export const SETTING_COMMANDS: CliCommand[] = [
  {
    words: ['set', 'cli', 'pagination', 'off'],
    run: () => ({ lines: ['Automatic Pagination is Off'], pagination: false }),
  },
  {
    words: ['set', 'cli', 'pagination', 'on'],
    run: () => ({ lines: ['Automatic Pagination is On'], pagination: true }),
  },
  {
    words: ['set', 'tls', 'min-version'],
    takesArgs: true,
    run: (ctx, args) => {
      const wanted = args[0] as TlsVersion | undefined;
      if (!wanted || !TLS_VERSIONS.includes(wanted) || args.length > 1) {
        return failed(`Invalid TLS version "${args.join(' ')}". Valid values: ${TLS_VERSIONS.join(', ')}`);
      }
      return {
        lines: [],
        confirm: {
          lines: [
            '',
            `This command will set the minimum TLS version to ${wanted} for all secure interfaces of this node.`,
            '**WARNING** Lowering the minimum TLS version can expose the node to protocol attacks **WARNING**',
            'The node must be rebooted for the change to take effect.',
            '',
          ],
          prompt: 'Continue (y/n)?',
          yes: () => {
            ctx.os.tlsMinVersion = wanted;
            ctx.log.write({
              node: ctx.os.node,
              via: 'cli',
              operation: 'set tls min-version',
              target: wanted,
            });
            return {
              lines: [
                `Successfully set minimum TLS version to ${wanted}`,
                'Reboot the node for the change to take effect.',
              ],
            };
          },
          no: () => ({ lines: ['Command cancelled. The minimum TLS version was not changed.'] }),
        },
      };
    },
  },
  {
    words: ['run', 'sql'],
    takesArgs: true,
    products: ['cucm', 'imp'],
    run: (ctx, _args, raw) => {
      const sql = raw.replace(/^\s*run\s+sql\s+/i, '');
      if (!ctx.db) return failed('The database is not available');
      try {
        const result = runQuery(ctx.db, sql);
        return { lines: sqlTable(result.columns, result.rows) };
      } catch (err) {
        if (err instanceof DbError) return failed(`${err.code}: ${err.message}`);
        throw err;
      }
    },
  },
  { words: ['quit'], run: () => ({ lines: [], close: true }) },
  { words: ['exit'], run: () => ({ lines: [], close: true }) },
];
