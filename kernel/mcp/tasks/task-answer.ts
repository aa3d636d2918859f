import type { JSONRPCRequest, Result, ServerContext } from '@modelcontextprotocol/server';
import { isCreateTaskResult } from './task-wire.ts';

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** Carries a CreateTaskResult past the SDK's tools/call result check (see passTaskAround). */
export class TaskAnswer extends Error {
  constructor(readonly result: Result) {
    super('a tools/call answered with a task');
  }
}

/**
 * A tools/call handler whose CreateTaskResult leaves as a TaskAnswer: the SDK checks every tools/call
 * result against CallToolResult, which a task handle (another result family of both revisions) is not.
 * The request itself is still checked by the SDK before the handler runs; the server's wrapper catches
 * the TaskAnswer and answers with its result.
 */
export function passTaskAround(handler: Handler): Handler {
  return async (request, ctx) => {
    const result = await handler(request, ctx);
    if (isCreateTaskResult(result)) throw new TaskAnswer(result);
    return result;
  };
}
