import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { isKernelError } from '../../errors/index.ts';
import type { RegisteredTool } from '../../plugins/registry.ts';
import type { CallerInfo } from '../../sdk/types.ts';
import type { ToolInputRequired, ToolResult } from '../tool-result.ts';
import { isTerminal, type TaskOutcome, type TaskView } from './task-store.ts';
import type { TaskDirectory } from './task-directory.ts';
import { createTaskResult, legacyTask, modernTask, TASKS_EXTENSION, type TaskRevision } from './task-wire.ts';

/**
 * What the server declares: the 2025-11-25 `tasks` capability (list, cancel, task-augmented
 * tools/call) and the 2026-07-28 Tasks extension. The SDK drops `tasks` from 2026-07-28 answers, where
 * the capability no longer exists; `extensions` is part of both revisions' capability objects.
 */
export const TASK_CAPABILITIES = {
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  extensions: { [TASKS_EXTENSION]: {} },
};

/** A tool call's work: the runner's call with the task's signal and progress. */
export type ToolCallRun = (
  signal: AbortSignal,
  progress: (progress: number, total?: number, message?: string) => Promise<void>,
) => Promise<ToolResult | ToolInputRequired>;

export interface ToolTasks {
  /**
   * Starts the call as a task when the tool allows it (its `task` field) and the client asked for one
   * (2025-11-25: `task` in the params) or declared the Tasks extension (2026-07-28); returns the
   * CreateTaskResult to answer with, or undefined: the call is made the plain way (so a tool the caller
   * may not call is refused by the plain call, audited as always).
   */
  start(
    params: { name: string; task?: unknown },
    ctx: ServerContext,
    run: ToolCallRun,
  ): Record<string, unknown> | undefined;
}

// Built once: a 2026-07-28 request builds a server (and installs these handlers) per request.
const TaskIdParams = z.looseObject({ taskId: z.string().max(256) });
const NoParams = z.looseObject({});

/**
 * The task methods of one MCP server instance, over the kernel's task store: tasks/get and tasks/cancel
 * on both revisions, tasks/result and tasks/list on 2025-11-25, tasks/update on 2026-07-28. Every lookup
 * is the caller's own: another client's task id is answered exactly as an unknown one (-32602).
 */
export function installTasks(
  server: Server,
  store: TaskDirectory,
  caller: CallerInfo,
  /** The tool of that name when this caller may call it (license, profile, scope, view), else undefined. */
  permitted: (name: string) => RegisteredTool | undefined,
): ToolTasks {
  const client = caller.name;
  const find = async (ctx: ServerContext, taskId: string): Promise<TaskView> => {
    if (revisionOf(ctx) === '2026-07-28' && !declaresTasks(ctx)) throw missingExtension();
    const v = await store.get(client, taskId);
    if (!v) throw notFound();
    return v;
  };

  server.setRequestHandler('tasks/get', { params: TaskIdParams }, async (params, ctx) => {
    const v = await find(ctx, params.taskId);
    return revisionOf(ctx) === '2025-11-25' ? legacyTask(v) : modernTask(v);
  });

  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async (params, ctx) => {
    const before = await find(ctx, params.taskId);
    if (revisionOf(ctx) === '2026-07-28') {
      await store.cancel(client, params.taskId);
      return {};
    }
    // 2025-11-25: a finished task cannot be cancelled, and the answer is the task as it is now.
    if (isTerminal(before.status))
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `BAD_REQUEST: the task is already ${before.status} and cannot be cancelled`,
      );
    return legacyTask((await store.cancel(client, params.taskId)) ?? before);
  });

  // 2025-11-25 only (the SDK answers -32601 for them on 2026-07-28, where they do not exist).
  server.setRequestHandler('tasks/result', { params: TaskIdParams }, async (params, ctx) => {
    await find(ctx, params.taskId);
    const v = await store.settled(client, params.taskId, ctx.mcpReq.signal);
    if (!v) throw notFound();
    return legacyResult(v);
  });

  server.setRequestHandler('tasks/list', { params: NoParams }, async () => ({
    tasks: (await store.list(client)).map(legacyTask),
  }));

  // 2026-07-28: answers to a task's input requests. A task here never asks for input, so there is
  // nothing outstanding to answer; an unknown task is still an error.
  server.setRequestHandler('tasks/update', { params: TaskIdParams }, async (params, ctx) => {
    await find(ctx, params.taskId);
    return {};
  });

  return {
    start(params, ctx, run) {
      const revision = revisionOf(ctx);
      const asked =
        revision === '2025-11-25'
          ? typeof params.task === 'object' && params.task !== null
          : declaresTasks(ctx);
      if (!asked) return undefined;
      const tool = permitted(params.name);
      if (!tool) return undefined;
      if (!tool.def.task) {
        // 2026-07-28: the server decides, and this tool answers in its request. 2025-11-25: the
        // client asked for a task that tools/list did not offer (no execution.taskSupport).
        if (revision === '2026-07-28') return undefined;
        throw new ProtocolError(
          ProtocolErrorCode.MethodNotFound,
          `${tool.name} does not run as a task (its execution.taskSupport is forbidden): call it without "task"`,
        );
      }
      const ttl = (params.task as { ttl?: unknown } | undefined)?.ttl;
      let view: TaskView;
      try {
        view = store.start(client, tool.name, (signal, status) => work(run, signal, status), numberOr(ttl));
      } catch (err) {
        if (isKernelError(err) && err.expose)
          throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `${err.code}: ${err.message}`);
        throw err;
      }
      // 2025-11-25 sessions have a channel for status notifications; 2026-07-28 clients poll.
      if (revision === '2025-11-25') {
        store.watch(client, view.taskId, (v) => {
          server
            .notification({ method: 'notifications/tasks/status', params: legacyTask(v) })
            .catch(() => undefined);
        });
      }
      return createTaskResult(view, revision);
    },
  };
}

/** Runs the call; its progress becomes the task's status message. */
async function work(
  run: ToolCallRun,
  signal: AbortSignal,
  status: (m: string) => void,
): Promise<TaskOutcome> {
  const result = await run(signal, (progress, total, message) => {
    const count = total ? `${progress}/${total}` : `${progress}`;
    status(message ? `${message} (${count})` : count);
    return Promise.resolve();
  });
  if (result.resultType === 'input_required')
    return {
      error: {
        code: ProtocolErrorCode.InternalError,
        message: 'the tool asked for input, which a task cannot carry',
      },
    };
  return { result: result as Record<string, unknown> };
}

/** What tasks/result answers on 2025-11-25: exactly what the call would have answered. */
function legacyResult(v: TaskView): Record<string, unknown> {
  const outcome = v.outcome;
  if (v.status === 'cancelled' || !outcome)
    throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `the task was ${v.status}: it has no result`);
  if ('error' in outcome) throw new ProtocolError(outcome.error.code, outcome.error.message);
  const meta = (outcome.result._meta as Record<string, unknown> | undefined) ?? {};
  return { ...outcome.result, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: v.taskId } } };
}

/** 2026-07-28 requests carry the per-request envelope; 2025-11-25 session requests do not. */
function revisionOf(ctx: ServerContext): TaskRevision {
  return ctx.mcpReq.envelope !== undefined ? '2026-07-28' : '2025-11-25';
}

function declaresTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const caps = envelope?.[CLIENT_CAPABILITIES_META_KEY] as
    { extensions?: Record<string, unknown> } | undefined;
  return caps?.extensions?.[TASKS_EXTENSION] !== undefined;
}

function missingExtension(): ProtocolError {
  return new MissingRequiredClientCapabilityError({
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });
}

function notFound(): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    'NOT_FOUND: no such task (unknown, expired, or created by another client)',
  );
}

function numberOr(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}
