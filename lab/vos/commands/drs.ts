// `utils disaster_recovery history backup|restore`: the Disaster Recovery System's history, from the same
// runs the DRF logs of `file list activelog platform/drf/log` come from (lab/vos/drf.ts), so both views
// of a node agree.
import type { CommandContext, CliCommand, CommandOutput } from './types.ts';
import { failed } from './types.ts';
import { vosDate } from './format.ts';

/** What each product backs up (the DRS feature names). */
const FEATURES = {
  cucm: 'UCM,CDR_CAR,PLM',
  imp: 'CUP',
  cuc: 'UCM,CONNECTION_MESSAGES_UNITYMBXDB1,CUC',
} as const;

/**
 * The layout the CLI reference documents ("utils disaster_recovery history"): a header, then one row per
 * backup, `<tar> <device> <completed, as the CLI prints dates> <result> <type> <features>`; a failed run
 * (ERROR) lists no feature, as in the reference's example. Column widths are the lab's own.
 */
function history(ctx: CommandContext): string[] {
  const header =
    'Tar Filename:             Backup Device:   Completed On:                   Result:   Backup Type:   Features Backed Up:';
  const rows = (ctx.facts.drfHistory?.(ctx.now) ?? []).map((b) =>
    `${b.tar.padEnd(26)}${'BACKUP_SFTP'.padEnd(17)}${vosDate(b.completed).padEnd(32)}${b.result.padEnd(10)}${b.type.padEnd(15)}${b.result === 'SUCCESS' ? `${FEATURES[ctx.facts.product]},` : ''}`.trimEnd(),
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

/**
 * `utils disaster_recovery status backup`: the last job. The CLI reference documents the command
 * ("utils disaster_recovery status") without its output; the labels and the component rows are the
 * ones a public parser of the real answer reads (ponchotitlan/ansible_cucm_ssh_module, cucm_ssh.py), the
 * value after `Status:` is the lab's own wording. No job yet: the message that parser also knows.
 */
function status(ctx: CommandContext, args: string[]): CommandOutput {
  const operation = args[0]?.toLowerCase();
  if (args.length !== 1 || (operation !== 'backup' && operation !== 'restore'))
    return failed('Usage: utils disaster_recovery status backup|restore');
  const job = operation === 'backup' ? ctx.facts.drfLastJob?.(ctx.now) : undefined;
  if (!job) return { lines: ['drfCliMsg: No backup status available'] };
  const word = job.result === 'SUCCESS' ? 'SUCCESS :Backup Completed...' : 'ERROR :Backup Failed...';
  const done = job.components.filter((c) => c.result === 'SUCCESS').length;
  return {
    lines: [
      `Status: ${word}`,
      `Tar Filename: ${job.tar}`,
      'Storage Location: NETWORK',
      'Operation: backup',
      `Percentage Complete: ${job.result === 'SUCCESS' ? 100 : Math.floor((100 * done) / Math.max(1, job.components.length))}`,
      ...job.components.map((c) => {
        const [feature = '', ...rest] = c.component.split('_');
        return `${feature.toUpperCase()} ${c.server} ${rest.join('_').toUpperCase() || feature.toUpperCase()} ${c.result} ${vosDate(c.at)} ${c.log}`;
      }),
    ],
  };
}

/** `utils disaster_recovery schedule list`, laid out as the CLI reference's example (tabs, a rule). */
function schedules(ctx: CommandContext): CommandOutput {
  return {
    lines: [
      'schedule name\tdevice name\tSchedule Status',
      '-----------------------------------------',
      ...(ctx.facts.drfSchedules?.(ctx.now) ?? []).map(
        (s) => `${s.name}\t\t${s.device}\t\t${s.enabled ? 'enabled' : 'disabled'}`,
      ),
    ],
  };
}

export const DRS_COMMANDS: CliCommand[] = [
  { words: ['utils', 'disaster_recovery', 'history'], takesArgs: true, run: (ctx, args) => run(ctx, args) },
  { words: ['utils', 'disaster_recovery', 'status'], takesArgs: true, run: (ctx, args) => status(ctx, args) },
  { words: ['utils', 'disaster_recovery', 'schedule', 'list'], run: (ctx) => schedules(ctx) },
];
