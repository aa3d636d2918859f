import { randomUUID } from 'node:crypto';
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import type { AppLogger } from '../logging/app-log.ts';
import { InternalError, isKernelError } from '../errors/index.ts';
import type { InputRequired, ToolReply } from '../sdk/types.ts';

/** The MCP CallToolResult shape the runner produces. */
export interface ToolResult {
  [key: string]: unknown;
  content: (
    | { type: 'text'; text: string }
    | { type: 'image'; data: string; mimeType: string }
    | Record<string, unknown>
  )[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * An input-required reply as the MCP result (SEP-2322): the requests as the tool gave them, its state
 * sealed by the kernel. On 2026-07-28 the client answers and calls again; on a 2025-11-25 session the
 * SDK sends the requests to the client itself and calls again in-process.
 */
export function inputRequiredResult(r: InputRequired, seal: (state: string) => string): ToolInputRequired {
  return {
    resultType: 'input_required',
    ...(r.requests ? { inputRequests: r.requests } : {}),
    ...(r.state !== undefined ? { requestState: seal(r.state) } : {}),
  } as ToolInputRequired;
}

/** An input-required result, typed so code reading a tool result's error fields reads none here. */
export type ToolInputRequired = InputRequiredResult & { structuredContent?: undefined; isError?: undefined };

export function successResult(reply: ToolReply): ToolResult {
  const content = [...(reply.content ?? [])];
  if (reply.structured !== undefined)
    content.unshift({ type: 'text', text: reply.textSummary ?? JSON.stringify(reply.structured) });
  return { content, ...(reply.structured !== undefined ? { structuredContent: reply.structured } : {}) };
}

/**
 * A failure as a tool result: `CODE: message` for coded, exposed errors; for anything else an opaque
 * reference that app.log explains (the SDK's default would echo raw messages: hostnames, paths).
 */
export function errorResult(
  err: unknown,
  log: AppLogger,
  tool: string,
): { result: ToolResult; code: string } {
  if (isKernelError(err) && err.expose) {
    const structured: Record<string, unknown> = { error: err.code, message: err.message };
    if (err.retryAfterSeconds !== undefined) structured.retry_after_s = Math.ceil(err.retryAfterSeconds);
    if (err.details !== undefined) structured.details = err.details;
    return {
      code: err.code,
      result: {
        isError: true,
        content: [{ type: 'text', text: `${err.code}: ${err.message}` }],
        structuredContent: structured,
      },
    };
  }
  const ref = randomUUID();
  log.error({ err, tool, reference: ref }, 'tool call failed unexpectedly');
  const internal = new InternalError(`internal error; reference ${ref}`);
  return {
    code: internal.code,
    result: {
      isError: true,
      content: [{ type: 'text', text: `${internal.code}: ${internal.message}` }],
      structuredContent: { error: internal.code, message: internal.message },
    },
  };
}
