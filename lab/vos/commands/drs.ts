// `utils disaster_recovery history backup|restore`: the Disaster Recovery System's history, read from the
// same DRF logs `file list activelog platform/drf/log` shows, so both views of a node agree.
import type { CommandContext, CliCommand, CommandOutput } from './types.ts';
import { failed } from './types.ts';
import { vosDate } from './format.ts';

const DRF_LOG_DIR = 'platform/drf/log';

/** What each product backs up (the DRS feature names). */
const FEATURES = {
  cucm: 'UCM,CDR_CAR,PLM',
  imp: 'CUP',
  cuc: 'UCM,CONNECTION_MESSAGES_UNITYMBXDB1,CUC',
} as const;

/**
 * The layout of the DRS history: a header, then one row per backup, `<tar> <device> <completed, as the
 * CLI prints dates> <result> <type> <features>`. The header words are those public health-check
 * scripts key on; the order of the fields is the one they split (`.tar` file, device, a 6-word date
 * with the year last, then SUCCESS or ERROR). Column widths are not confirmed by a stored source.
 */
function history(ctx: CommandContext): string[] {
  const header =
    'Tar Filename:             Backup Device:   Completed On:                   Result:   Backup Type:   Features Backed Up:';
  const files = ctx.facts.listFiles?.('activelog', DRF_LOG_DIR, ctx.now) ?? [];
  // One backup per start stamp: `<yyyy-mm-dd-hh-mm-ss>_b_<server>_<component>.log`.
  const backups = new Map<string, Date>();
  for (const f of files) {
    const m = /^(\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2})_b_/.exec(f.name);
    if (!m?.[1]) continue;
    const done = backups.get(m[1]);
    if (!done || f.modified > done) backups.set(m[1], f.modified);
  }
  const rows = [...backups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([start, done]) =>
        `${`${start}.tar`.padEnd(26)}${'BACKUP_SFTP'.padEnd(17)}${vosDate(done).padEnd(32)}${'SUCCESS'.padEnd(10)}${'SCHEDULED'.padEnd(15)}${FEATURES[ctx.facts.product]},`,
    );
  return [header, ...rows];
}

function run(ctx: CommandContext, args: string[]): CommandOutput {
  const operation = args[0]?.toLowerCase();
  if (args.length !== 1 || (operation !== 'backup' && operation !== 'restore'))
    return failed('Usage: utils disaster_recovery history backup|restore');
  if (operation === 'restore')
    return {
      lines: [
        'Tar Filename:             Backup Device:   Restored On:                    Result:   Backup Version:   Features Restored:',
      ],
    };
  return { lines: history(ctx) };
}

export const DRS_COMMANDS: CliCommand[] = [
  { words: ['utils', 'disaster_recovery', 'history'], takesArgs: true, run: (ctx, args) => run(ctx, args) },
];
