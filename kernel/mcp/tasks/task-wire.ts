import { isTerminal, type TaskStatus, type TaskView } from './task-store.ts';

/** The Tasks extension's identifier (2026-07-28: SEP-2663, negotiated in `capabilities.extensions`). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Which task shape a client reads: the 2025-11-25 core utility, or the 2026-07-28 extension. */
export type TaskRevision = '2025-11-25' | '2026-07-28';

/**
 * 2025-11-25 reports a tool result with `isError` as a `failed` task (the result itself, isError and
 * all, is still what tasks/result returns); 2026-07-28 keeps `failed` for JSON-RPC errors only.
 */
function statusFor(v: TaskView, revision: TaskRevision): TaskStatus {
  if (revision === '2025-11-25' && v.status === 'completed' && v.outcome && 'result' in v.outcome)
    return v.outcome.result.isError === true ? 'failed' : 'completed';
  return v.status;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A 2025-11-25 `Task`: what tasks/get, tasks/list and notifications/tasks/status carry. */
export function legacyTask(v: TaskView): Record<string, unknown> {
  return {
    taskId: v.taskId,
    status: statusFor(v, '2025-11-25'),
    ...(v.statusMessage !== undefined ? { statusMessage: v.statusMessage } : {}),
    createdAt: iso(v.createdAt),
    lastUpdatedAt: iso(v.lastUpdatedAt),
    ttl: v.ttlMs,
    pollInterval: v.pollIntervalMs,
  };
}

/**
 * A 2026-07-28 `DetailedTask`: the task with, once it is finished, its result (completed) or its
 * JSON-RPC error (failed) inline; there is no tasks/result on this revision.
 */
export function modernTask(v: TaskView): Record<string, unknown> {
  const outcome = isTerminal(v.status) ? v.outcome : undefined;
  return {
    taskId: v.taskId,
    status: v.status,
    ...(v.statusMessage !== undefined ? { statusMessage: v.statusMessage } : {}),
    createdAt: iso(v.createdAt),
    lastUpdatedAt: iso(v.lastUpdatedAt),
    ttlMs: v.ttlMs,
    pollIntervalMs: v.pollIntervalMs,
    ...(v.status === 'completed' && outcome && 'result' in outcome ? { result: outcome.result } : {}),
    ...(v.status === 'failed' && outcome && 'error' in outcome ? { error: outcome.error } : {}),
  };
}

/** The answer to a tools/call that became a task (CreateTaskResult of the client's revision). */
export function createTaskResult(v: TaskView, revision: TaskRevision): Record<string, unknown> {
  return revision === '2025-11-25' ? { task: legacyTask(v) } : { resultType: 'task', ...modernTask(v) };
}

/** Whether a handler's result is a CreateTaskResult (either revision) rather than a CallToolResult. */
export function isCreateTaskResult(result: unknown): boolean {
  if (!result || typeof result !== 'object') return false;
  const r = result as Record<string, unknown>;
  return (
    r.resultType === 'task' || (r.content === undefined && typeof r.task === 'object' && r.task !== null)
  );
}
