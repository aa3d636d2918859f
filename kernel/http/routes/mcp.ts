import type Router from '@koa/router';
import { isLegacyRequest, type Server } from '@modelcontextprotocol/server';
import type { AuditLog } from '../../audit/audit-log.ts';
import type { ModernEndpoint } from '../../mcp/modern-endpoint.ts';
import type { MakeSessionServer, McpSession, SessionLookup, SessionManager } from '../../mcp/sessions.ts';
import type { ToolRunner } from '../../mcp/tool-runner.ts';
import { requestedView, type ToolView } from '../../mcp/toolsets.ts';
import { BadRequestError } from '../../errors/index.ts';
import type { CallerInfo, Product } from '../../sdk/types.ts';
import type { KernelContext, KernelMiddleware, KernelState } from '../state.ts';
import { answerRateLimitedCall, isJsonPost, isToolCall, readMcpBody } from './mcp-rate-limit.ts';

export interface McpRouteDeps {
  sessions: SessionManager;
  /** The 2026-07-28 leg: stateless, one server per request. */
  modern: ModernEndpoint;
  /** Builds the MCP server of a new 2025-11-25 session for this caller and the view it asked for. */
  makeServer: (caller: CallerInfo, ip: () => string, view: ToolView) => Server;
  /** Bearer authentication (and the IP blacklist) in front of /mcp. */
  auth: KernelMiddleware[];
  audit: AuditLog;
  maxBodyBytes: number;
  /** Asked before the transport whether a tools/call is to be refused 429 for its rate limit. */
  runner: Pick<ToolRunner, 'wouldBeRateLimited' | 'call'>;
}

/**
 * The request as the SDK's classifier reads it when given the parsed body: its headers alone (the
 * body is neither serialised again nor read).
 */
function headersOf(ctx: KernelContext): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return new Request(`https://${ctx.host || 'localhost'}${ctx.url}`, { method: ctx.method, headers });
}

function jsonRpcError(ctx: KernelContext, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id: null };
}

/**
 * POST, GET (SSE) and DELETE on /mcp and /mcp/ (Streamable HTTP), both revisions on one endpoint. A
 * POST's body is read once here (bounded), then classified exactly as the SDK classifies it: a
 * request carrying the 2026-07-28 envelope goes to the stateless leg, anything else (initialize,
 * session traffic, GET and DELETE) to the 2025-11-25 sessions. The rate limit is answered 429 here
 * for both. A session belongs to the client that opened it: another client's token with that session
 * id is answered exactly like an unknown session, so session ids cannot be probed across clients.
 */
export function mcpRoutes(deps: McpRouteDeps) {
  return (router: Router<KernelState>): void => {
    const handler: KernelMiddleware = async (ctx) => {
      ctx.state.route = '/mcp';
      const client = ctx.state.client;
      if (!client) throw new Error('MCP route reached without an authenticated client');
      const caller: CallerInfo = {
        name: client.name,
        profile: client.profile,
        products: client.products as Product[],
      };
      let view: ToolView;
      try {
        view = requestedView(new URLSearchParams(ctx.querystring), (h) => ctx.get(h) || undefined);
      } catch (err) {
        if (!(err instanceof BadRequestError)) throw err;
        ctx.status = 400;
        ctx.type = 'application/json';
        ctx.body = {
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32602,
            message: `BAD_REQUEST: ${err.message}`,
            data: { error: err.code, message: err.message },
          },
        };
        return;
      }
      let parsed: unknown;
      if (isJsonPost(ctx)) {
        const body = await readMcpBody(ctx, deps.maxBodyBytes);
        if (!body.ok) return jsonRpcError(ctx, body.status, body.code, body.error);
        parsed = body.message;
      }
      // Only a tool call's STARTED (or refusal) record takes the held AUTH_OK along: anything else has
      // it written now, before the request is served.
      if (!isToolCall(parsed)) deps.audit.release();
      // A POST that is not JSON has no envelope: the 2025 transport answers it (415), as the SDK would.
      const modern = parsed !== undefined && !(await isLegacyRequest(headersOf(ctx), parsed));
      if (
        parsed !== undefined &&
        (await answerRateLimitedCall(ctx, deps.runner, caller, parsed, modern, view))
      ) {
        return;
      }
      ctx.respond = false;
      if (modern) {
        await deps.modern.serve(ctx.req, ctx.res, parsed, { caller, ip: ctx.state.ip, view });
        return;
      }
      await legacy(ctx, caller, parsed, view);
    };

    /** A session keeps the view its initialize request asked for; later requests cannot change it. */
    async function legacy(
      ctx: KernelContext,
      caller: CallerInfo,
      parsed: unknown,
      view: ToolView,
    ): Promise<void> {
      const sid = ctx.get('mcp-session-id');
      const make: MakeSessionServer = (c, v, s) => deps.makeServer(c, () => s().ip, v);
      if (sid) {
        let found: SessionLookup;
        try {
          // With a shared store, a session opened on another instance is built here from its record.
          found = await deps.sessions.find(sid, caller, ctx.state.ip, make, deps.maxBodyBytes);
        } catch (err) {
          ctx.respond = true;
          throw err;
        }
        if ('refused' in found) {
          if (found.refused === 'foreign') {
            deps.audit.write({
              event: 'AUTH',
              status: 'AUTH_FAILED',
              client: caller.name,
              ip: ctx.state.ip,
              reason: 'mcp_session_of_another_client',
            });
          }
          ctx.respond = true;
          return jsonRpcError(ctx, 404, -32001, 'Session not found');
        }
        await deps.sessions.serve(found.session, ctx.req, ctx.res, parsed);
        return;
      }
      if (ctx.method !== 'POST') {
        ctx.respond = true;
        return jsonRpcError(ctx, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      }
      let session: McpSession;
      try {
        session = await deps.sessions.open(caller, ctx.state.ip, make, deps.maxBodyBytes, view, parsed);
      } catch (err) {
        ctx.respond = true;
        throw err;
      }
      await session.transport.handleRequest(ctx.req, ctx.res, parsed);
      // Not an initialize request: the transport answered 400 and no session came to be.
      if (!session.id) await session.transport.close();
    }

    /** A POST's AUTH_OK may go out with its tool call's STARTED record, in one write (see the handler). */
    const holdAuthRecord: KernelMiddleware = async (ctx, next) => {
      ctx.state.holdAuthRecord = true;
      await next();
    };
    for (const path of ['/mcp', '/mcp/']) {
      router.post(path, holdAuthRecord, ...deps.auth, handler);
      router.get(path, ...deps.auth, handler);
      router.delete(path, ...deps.auth, handler);
    }
  };
}
