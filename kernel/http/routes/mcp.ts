import type Router from '@koa/router';
import type { AuditLog } from '../../audit/audit-log.ts';
import type { SessionManager } from '../../mcp/sessions.ts';
import type { ToolRunner } from '../../mcp/tool-runner.ts';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallerInfo, Product } from '../../sdk/types.ts';
import type { KernelContext, KernelMiddleware, KernelState } from '../state.ts';
import { answerRateLimitedCall, readMcpBody, wantsBody } from './mcp-rate-limit.ts';

export interface McpRouteDeps {
  sessions: SessionManager;
  /** Builds the MCP server of a new session for this caller. */
  makeServer: (caller: CallerInfo, ip: () => string) => Server;
  /** Bearer authentication (and the IP blacklist) in front of /mcp. */
  auth: KernelMiddleware[];
  audit: AuditLog;
  maxBodyBytes: number;
  /** Asked before the transport whether a tools/call is to be refused 429 for its rate limit. */
  runner: Pick<ToolRunner, 'wouldBeRateLimited' | 'call'>;
}

function jsonRpcError(ctx: KernelContext, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id: null };
}

/**
 * POST, GET (SSE) and DELETE on /mcp and /mcp/ (Streamable HTTP). A session belongs to the client that
 * opened it: another client's token with that session id is answered exactly like an unknown session,
 * so session ids cannot be probed across clients.
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
      const sid = ctx.get('mcp-session-id');
      if (sid) {
        const session = deps.sessions.get(sid);
        if (!session || session.caller.name !== caller.name) {
          if (session) {
            deps.audit.write({
              event: 'AUTH',
              status: 'AUTH_FAILED',
              client: caller.name,
              ip: ctx.state.ip,
              reason: 'mcp_session_of_another_client',
            });
          }
          jsonRpcError(ctx, 404, -32001, 'Session not found');
          return;
        }
        session.lastSeen = Date.now();
        session.ip = ctx.state.ip;
        let parsed: unknown;
        if (wantsBody(ctx)) {
          const body = await readMcpBody(ctx, deps.maxBodyBytes);
          if (!body.ok) return jsonRpcError(ctx, body.status, body.code, body.error);
          if (await answerRateLimitedCall(ctx, deps.runner, caller, body.message)) return;
          parsed = body.message;
        }
        ctx.respond = false;
        await session.transport.handleRequest(ctx.req, ctx.res, parsed);
        return;
      }
      if (ctx.method !== 'POST') {
        jsonRpcError(ctx, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
        return;
      }
      const ip = ctx.state.ip;
      const session = await deps.sessions.open(
        caller,
        ip,
        (s) => deps.makeServer(caller, () => s().ip),
        deps.maxBodyBytes,
      );
      ctx.respond = false;
      await session.transport.handleRequest(ctx.req, ctx.res);
      // Not an initialize request: the transport answered 400 and no session came to be.
      if (!session.id) await session.transport.close();
    };
    for (const path of ['/mcp', '/mcp/']) {
      router.post(path, ...deps.auth, handler);
      router.get(path, ...deps.auth, handler);
      router.delete(path, ...deps.auth, handler);
    }
  };
}
