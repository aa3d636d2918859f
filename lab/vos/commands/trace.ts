// The trace commands of the VOS CLI (CLI reference, Set Commands "set trace enable" / "set trace
// disable", Show Commands "show trace"): each node keeps a level per task, changed by `set trace`.
// Cisco documents the commands and their level keywords but prints no answer of `show trace`: the
// lines below are the lab's own (a heading with a colon, then one task per line; `label: value` lines
// for one task), which is what the product's reader is written against and says it is.
import type { TraceTaskLevel } from '../state.ts';
import type { CliCommand, CommandContext, CommandOutput } from './types.ts';
import { failed } from './types.ts';

/** The level keywords of `set trace enable`, as the CLI reference spells them. */
export const TRACE_TASK_LEVELS: readonly TraceTaskLevel[] = [
  'Arbitrary',
  'Detailed',
  'Entry_exit',
  'Error',
  'Significant',
  'Special',
  'State_Transition',
];

/**
 * Tasks every lab node has, at the Error level: `cdps` is the CLI reference's `show trace` example and
 * `cdpmib` the one Cisco's troubleshooting guide sets to Detailed; no document lists a node's tasks.
 */
export function initialTraces(): Record<string, { enabled: boolean; level: TraceTaskLevel }> {
  return { cdps: { enabled: true, level: 'Error' }, cdpmib: { enabled: true, level: 'Error' } };
}

function unknownTask(task: string): CommandOutput {
  return failed(`Invalid task name: ${task}`);
}

function setLevel(
  ctx: CommandContext,
  task: string,
  setting: { enabled: boolean; level: TraceTaskLevel },
  operation: string,
): CommandOutput {
  ctx.os.traces[task] = setting;
  ctx.log.write({ node: ctx.os.node, via: 'cli', operation, target: task });
  return { lines: [`Trace settings of task ${task} updated`] };
}

export const TRACE_COMMANDS: CliCommand[] = [
  {
    words: ['show', 'trace'],
    takesArgs: true,
    run: (ctx, args) => {
      if (args.length === 0) return { lines: ['Available tasks:', ...Object.keys(ctx.os.traces)] };
      const task = args[0] ?? '';
      const t = args.length === 1 ? ctx.os.traces[task] : undefined;
      if (!t) return unknownTask(args.join(' '));
      return {
        lines: [`Task name: ${task}`, `Trace enabled: ${String(t.enabled)}`, `Trace level: ${t.level}`],
      };
    },
  },
  {
    words: ['set', 'trace', 'enable'],
    takesArgs: true,
    run: (ctx, args) => {
      const level = TRACE_TASK_LEVELS.find((l) => l.toLowerCase() === args[0]?.toLowerCase());
      if (!level || args.length !== 2)
        return failed(`Invalid trace level or task. Levels: ${TRACE_TASK_LEVELS.join(', ')}`);
      const task = args[1] ?? '';
      if (!ctx.os.traces[task]) return unknownTask(task);
      return setLevel(ctx, task, { enabled: true, level }, `set trace enable ${level}`);
    },
  },
  {
    words: ['set', 'trace', 'disable'],
    takesArgs: true,
    run: (ctx, args) => {
      const task = args[0] ?? '';
      const t = args.length === 1 ? ctx.os.traces[task] : undefined;
      if (!t) return unknownTask(args.join(' '));
      return setLevel(ctx, task, { enabled: false, level: t.level }, 'set trace disable');
    },
  },
];
