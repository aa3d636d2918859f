import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { restoreLegacyNotFound } from './resource-not-found.ts';
import { passTaskAround, TaskAnswer } from './tasks/task-answer.ts';

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The SDK's low-level Server, answering a caller's malformed params the way the kernel answers bad
 * input everywhere: -32602 with a one-line `BAD_REQUEST` reason. The SDK checks a request against the
 * method's schema before the handler runs and, for most methods, throws zod's whole issue list as a
 * plain Error, which goes out as InternalError (-32603): a caller's mistake looking like a server
 * fault. A tools/call answered with a task handle (MCP tasks) passes around the SDK's CallToolResult
 * check of tools/call results (tasks/task-answer.ts).
 */
export class KernelServer extends Server {
  /** Every outgoing message passes restoreLegacyNotFound (2025-11-25's -32002, see resource-not-found.ts). */
  override async connect(transport: Transport): Promise<void> {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(restoreLegacyNotFound(message), options);
    await super.connect(transport);
  }

  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const inner = super._wrapHandler(method, method === 'tools/call' ? passTaskAround(handler) : handler);
    return async (request, ctx) => {
      try {
        return await inner(request, ctx);
      } catch (err) {
        if (err instanceof TaskAnswer) return err.result;
        throw asCallerError(err);
      }
    };
  }
}

const TOOL_CALL_PREFIX = 'Invalid tools/call request: ';

function asCallerError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const isProtocol = err instanceof ProtocolError;
  // The handlers here throw only ProtocolErrors; a plain Error is the SDK's own params check.
  const text = isProtocol
    ? err.message.startsWith(TOOL_CALL_PREFIX)
      ? err.message.slice(TOOL_CALL_PREFIX.length)
      : undefined
    : err.message;
  const why = text === undefined ? undefined : issuesOf(text);
  if (why !== undefined)
    return new ProtocolError(ProtocolErrorCode.InvalidParams, `BAD_REQUEST: invalid params: ${why}`);
  return isProtocol ? err : new ProtocolError(ProtocolErrorCode.InternalError, 'internal error');
}

/** zod's issue list (JSON) as one line: at most three `path: message`; undefined when it is not one. */
function issuesOf(text: string): string | undefined {
  let issues: unknown;
  try {
    issues = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  return issues
    .slice(0, 3)
    .map((i: { path?: unknown[]; message?: unknown }) => {
      const path = Array.isArray(i.path) ? i.path.map(String).join('.') : '';
      return `${path || '(request)'}: ${String(i.message ?? 'invalid')}`.replace(/\s+/g, ' ');
    })
    .join('; ');
}
