import type { ToolRunner } from '../../mcp/tool-runner.ts';
import type { CallerInfo } from '../../sdk/types.ts';
import { FormBodyError, readCapped } from '../form-body.ts';
import { FULL_VIEW, type ToolView } from '../../mcp/toolsets.ts';
import type { KernelContext } from '../state.ts';

export type McpBody =
  { ok: true; message: unknown } | { ok: false; status: number; code: number; error: string };

/** A POST whose body is JSON: the route reads it (bounded) to classify its revision. */
export function isJsonPost(ctx: KernelContext): boolean {
  const type = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
  return ctx.method === 'POST' && type === 'application/json';
}

/** Whether the transport would accept this POST (its own Accept check comes first, and stays its own). */
function acceptsMcpResponses(ctx: KernelContext): boolean {
  const accept = ctx.get('accept');
  return accept.includes('application/json') && accept.includes('text/event-stream');
}

/** Reads and parses the body as the transport would, with the transport's answers for what fails. */
export async function readMcpBody(ctx: KernelContext, maxBytes: number): Promise<McpBody> {
  const tooLarge = {
    ok: false,
    status: 413,
    code: -32000,
    // The SDK transports' own wording for the same refusal.
    error: `Payload Too Large: Request body must not exceed ${maxBytes} bytes`,
  } as const;
  if (Number(ctx.get('content-length') || '0') > maxBytes) {
    ctx.set('Connection', 'close');
    return tooLarge;
  }
  let raw: Buffer;
  try {
    raw = await readCapped(ctx, maxBytes);
  } catch (err) {
    if (err instanceof FormBodyError) return tooLarge;
    throw err;
  }
  try {
    return { ok: true, message: JSON.parse(raw.toString('utf8')) as unknown };
  } catch {
    return { ok: false, status: 400, code: -32700, error: 'Parse error: Invalid JSON' };
  }
}

/**
 * The spec answers a rate-limited tool call with HTTP 429 and Retry-After. The Streamable HTTP
 * transport cannot: it answers 200 and opens its stream before the tool runs. So a single tools/call
 * request the runner says its rate limit would refuse is made here instead (the runner refuses it,
 * audits and counts it, once) and answered here: 429, Retry-After, and a JSON-RPC error whose message
 * and data carry RATE_LIMITED and the seconds. Anything else (other methods, batches, calls allowed,
 * other coded refusals) goes to the transport and keeps its in-band answer. Resolves to whether it
 * answered. A limit reached by a call already running (a second service it contacts) is answered in
 * its stream: by then the 200 is sent.
 */
export async function answerRateLimitedCall(
  ctx: KernelContext,
  runner: Pick<ToolRunner, 'wouldBeRateLimited' | 'call'>,
  caller: CallerInfo,
  message: unknown,
  modern: boolean,
  view: ToolView = FULL_VIEW,
): Promise<boolean> {
  if (!acceptsMcpResponses(ctx) || !isToolCall(message)) return false;
  const { name, arguments: args } = message.params;
  if (!(await runner.wouldBeRateLimited(name, args ?? {}, caller, view))) return false;
  const aborted = new AbortController();
  ctx.res.once('close', () => aborted.abort());
  const result = await runner.call(name, args ?? {}, {
    caller,
    ip: ctx.state.ip,
    view,
    signal: aborted.signal,
  });
  const refused = result.structuredContent;
  ctx.type = 'application/json';
  if (result.isError && refused?.error === 'RATE_LIMITED') {
    const seconds = Math.max(1, Number(refused.retry_after_s) || 1);
    const text = String(refused.message);
    ctx.status = 429;
    ctx.set('Retry-After', String(seconds));
    ctx.body = {
      jsonrpc: '2.0',
      id: message.id,
      error: {
        code: -32000,
        message: `RATE_LIMITED: ${text}`,
        data: { error: 'RATE_LIMITED', message: text, retry_after_s: seconds },
      },
    };
    return true;
  }
  // A slot freed between the question and the call: it ran, and its result is the answer.
  ctx.status = 200;
  // A 2026-07-28 result says it is complete (no MRTR round follows).
  ctx.body = {
    jsonrpc: '2.0',
    id: message.id,
    result: modern ? { ...result, resultType: 'complete' } : result,
  };
  return true;
}

interface ToolCallMessage {
  id: string | number;
  params: { name: string; arguments?: Record<string, unknown> };
}

export function isToolCall(m: unknown): m is ToolCallMessage {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return false;
  const r = m as Record<string, unknown>;
  const params = r.params as Record<string, unknown> | undefined;
  return (
    r.jsonrpc === '2.0' &&
    r.method === 'tools/call' &&
    (typeof r.id === 'string' || (typeof r.id === 'number' && Number.isInteger(r.id))) &&
    typeof params === 'object' &&
    params !== null &&
    typeof params.name === 'string' &&
    (params.arguments === undefined ||
      (typeof params.arguments === 'object' && params.arguments !== null && !Array.isArray(params.arguments)))
  );
}
