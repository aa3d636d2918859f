import {
  BadRequestError,
  NotFoundError,
  ProfilePermissionError,
  structuredReply,
  toolsFor,
  z,
  type Product,
  type ToolContext,
} from '../../../kernel/sdk/index.ts';
import {
  parseTraceState,
  parseTraceTasks,
  setTraceCommand,
  SHOW_TRACE_COMMAND,
  showTraceCommand,
  TASK_NAME,
  TRACE_LEVELS,
  type TraceLevel,
} from '../vos/trace-output.ts';
import { classifyCli } from '../changes/classify.ts';
import { sendJournalled } from '../changes/journalled-send.ts';
import { eachNode, failIfNoneAnswered, type NodeFailure } from '../node/node-failures.ts';
import { unrecognised } from './cli-sections.ts';
import { hostField } from './credential-input.ts';
import type { VosState } from './plugin-state.ts';
import { PRODUCT_LABEL } from './product-labels.ts';
import { traceLevelOutput } from './trace-level-output.ts';

type Ctx = ToolContext<VosState>;
type Level = TraceLevel | 'disabled';

interface Input {
  host: string;
  task?: string | undefined;
  level?: Level | undefined;
  nodes: string[];
  confirm: boolean;
}

/** The command whose SSH allowlist decision permits the call (each command sent is checked too). */
function mainCommand(i: { task?: unknown; level?: unknown }): string {
  const task = typeof i.task === 'string' ? i.task : undefined;
  if (typeof i.level === 'string' && task !== undefined) return setTraceCommand(i.level as Level, task);
  return task !== undefined ? showTraceCommand(task) : SHOW_TRACE_COMMAND;
}

interface NodeAnswer {
  node: string;
  tasks?: string[];
  task?: string;
  enabled?: boolean | null;
  level?: TraceLevel | null;
  changed?: boolean;
  recognised: boolean;
  unrecognised?: { command: string; excerpt: string };
}

/**
 * `<product>_trace_level`: the trace settings of a node's tasks over its CLI (`show trace`), and, for
 * the admin profile with confirm, a new level (`set trace enable <level> <task>`, `set trace disable`).
 */
export function traceLevelTool(product: Product, trustTool: string) {
  return toolsFor<VosState>()({
    name: 'trace_level',
    title: `${PRODUCT_LABEL[product]} trace levels (CLI)`,
    description: `Reads or sets the trace level of a task on ${PRODUCT_LABEL[product]} nodes over their CLI (SSH), the documented interface for it (no serviceability API has a trace operation). Without task: the tasks each node lists (show trace). With task: its trace state (show trace <task>). With task and level: sets it (set trace enable <Level> <task>, or set trace disable <task> for level disabled), then reads it back: admin profile only, and confirm must be true (detailed traces cost the node CPU and disk). Levels, as the CLI reference names them: ${TRACE_LEVELS.join(', ')}. A task the node does not list is refused before anything changes on any node. nodes names more hosts of the cluster (each with a stored OS credential); a node that cannot be read is listed in failed. The answers of show trace are not printed by any Cisco document: what this server reads from them is its own reading (recognised false, with an excerpt, when it finds no state). Needs the node's OS credential and an SSH allowlist that permits the command; a new node's host key must first be trusted with ${trustTool}.`,
    input: {
      host: hostField,
      task: z
        .string()
        .regex(TASK_NAME, 'one word: letters, digits, . _ -')
        .optional()
        .describe('The trace task as show trace lists it, e.g. cdps; omitted: list the tasks'),
      level: z
        .enum([...TRACE_LEVELS, 'disabled'])
        .optional()
        .describe('Set this level for task (admin only, with confirm); omitted: read'),
      nodes: z
        .array(hostField)
        .max(16)
        .default([])
        .describe('Other nodes of the cluster to read or set too (hosts with stored OS credentials)'),
      confirm: z.boolean().default(false).describe('Must be true to set a level (admin only)'),
    },
    output: traceLevelOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    access: { allowlist: 'ssh', subject: (i) => mainCommand(i) },
    service: 'ssh',
    summary: (i) => ({
      operation: mainCommand(i),
      detail:
        `nodes=${[i.host, ...i.nodes].slice(0, 8).join(', ')}` +
        (i.level !== undefined && !i.confirm ? ' (not confirmed)' : ''),
    }),
    async handler(input, ctx) {
      const hosts = [...new Map([input.host, ...input.nodes].map((h) => [h.toLowerCase(), h])).values()];
      if (input.level === undefined) return structuredReply(await read(ctx, product, input, hosts));
      if (input.task === undefined)
        throw new BadRequestError('a level is set for one task: give task (show trace lists them)');
      if (ctx.caller.profile !== 'admin')
        throw new ProfilePermissionError('only the admin profile may set trace levels');
      if (!input.confirm)
        throw new BadRequestError(
          `setting ${input.task} to ${input.level} on ${hosts.join(', ')} changes what the node writes to its traces: repeat the call with confirm: true to do it`,
        );
      return structuredReply(await set(ctx, product, input.task, input.level, hosts));
    },
  });
}

/** One command on one node (the shell pool checks it against the caller's SSH allowlist first). */
async function run(
  ctx: Ctx,
  product: Product,
  host: string,
  command: string,
  confirm = false,
): Promise<string> {
  const r = await ctx.shared.shells.run(ctx.vault, product, host, command, { confirm, signal: ctx.signal });
  return r.output;
}

function stateOf(node: string, task: string, output: string): NodeAnswer {
  const s = parseTraceState(output);
  return {
    node,
    task,
    enabled: s.enabled,
    level: s.level,
    recognised: s.recognised,
    ...(s.recognised ? {} : { unrecognised: unrecognised(showTraceCommand(task), output) }),
  };
}

/** A task's state as the journal keeps it (null when the node's answer was not recognised). */
function traceImage(a: NodeAnswer): { enabled: boolean; level: string | null } | null {
  return a.recognised ? { enabled: a.enabled === true, level: a.level ?? null } : null;
}

function tasksOf(node: string, output: string): NodeAnswer {
  const tasks = parseTraceTasks(output);
  return {
    node,
    tasks,
    recognised: tasks.length > 0,
    ...(tasks.length > 0 ? {} : { unrecognised: unrecognised(SHOW_TRACE_COMMAND, output) }),
  };
}

function reply(task: string | null, levelSet: Level | null, nodes: NodeAnswer[], failed: NodeFailure[]) {
  return {
    task,
    level_set: levelSet,
    nodes,
    // The CLI's failures carry no retry time: the listed error keeps the output's two fields.
    failed: failed.map(({ node, error }) => ({ node, error: { code: error.code, message: error.message } })),
    complete: failed.length === 0,
  };
}

async function read(ctx: Ctx, product: Product, input: Input, hosts: string[]) {
  const { answered: nodes, failed } = await eachNode(
    hosts,
    async (host) =>
      input.task === undefined
        ? tasksOf(host, await run(ctx, product, host, SHOW_TRACE_COMMAND))
        : stateOf(host, input.task, await run(ctx, product, host, showTraceCommand(input.task))),
    ctx.signal,
  );
  failIfNoneAnswered(nodes, failed);
  return reply(input.task ?? null, null, nodes, failed);
}

/**
 * Every node is read first (its task list): a node that cannot be read, or that does not list the task,
 * refuses the call before anything changes anywhere. Then each node is set and read back; a node that
 * fails then is reported while the others keep their change.
 */
async function set(ctx: Ctx, product: Product, task: string, level: Level, hosts: string[]) {
  const missing: string[] = [];
  let known: string[] = [];
  for (const host of hosts) {
    const tasks = parseTraceTasks(await run(ctx, product, host, SHOW_TRACE_COMMAND));
    if (!tasks.includes(task)) {
      missing.push(host);
      known = tasks;
    }
  }
  if (missing.length > 0)
    throw new NotFoundError(
      `${missing.join(', ')} list${missing.length === 1 ? 's' : ''} no trace task named ${task}; nothing was changed${known.length > 0 ? `. Tasks: ${known.slice(0, 30).join(', ')}` : ''}`,
    );
  const command = setTraceCommand(level, task);
  const { answered: nodes, failed } = await eachNode(
    hosts,
    async (host): Promise<NodeAnswer> => {
      // The task's state before, for the change journal (every change on a node is journalled).
      const before = traceImage(stateOf(host, task, await run(ctx, product, host, showTraceCommand(task))));
      const entry = {
        host,
        kind: 'cli' as const,
        operation: command,
        change_class:
          classifyCli(command).class === 'destructive' ? ('destructive' as const) : ('change' as const),
        object: { type: 'trace task', name: task },
        before,
        request: { command },
        confirmed_by: { how: 'direct' as const, who: ctx.caller.name },
      };
      // A (y/n) question, if the node asks one, is answered y: the caller confirmed.
      await sendJournalled(ctx, entry, () => run(ctx, product, host, command, true));
      let after: NodeAnswer;
      try {
        after = stateOf(host, task, await run(ctx, product, host, showTraceCommand(task)));
      } catch (err) {
        // Set but not read back: the change is journalled all the same, and the node listed in failed.
        await ctx.changes.record({ ...entry, after: null, outcome: 'applied' });
        throw err;
      }
      await ctx.changes.record({ ...entry, after: traceImage(after), outcome: 'applied' });
      return { ...after, changed: true };
    },
    ctx.signal,
  );
  failIfNoneAnswered(nodes, failed);
  ctx.log.info({ task, level, nodes: hosts }, 'trace level set over the CLI');
  return reply(task, level, nodes, failed);
}
