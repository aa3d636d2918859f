import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type AuthInfo, type Server } from '@modelcontextprotocol/server';
import type { AppLogger } from '../logging/app-log.ts';
import type { CallerInfo } from '../sdk/types.ts';
import type { ToolView } from './toolsets.ts';

/** Who a 2026-07-28 request comes from, as the route established it (bearer auth, IP guard). */
export interface ModernCaller {
  caller: CallerInfo;
  ip: string;
  /** The toolsets and read-only mode this request asked for. */
  view: ToolView;
}

export interface ModernEndpoint {
  /** Serves one 2026-07-28 request (already authenticated, body already read) and writes its answer. */
  serve(req: IncomingMessage, res: ServerResponse, parsedBody: unknown, who: ModernCaller): Promise<void>;
  /** Tells every open `subscriptions/listen` stream that a list changed. */
  notify(kind: 'tools' | 'prompts' | 'resources'): void;
  close(): Promise<void>;
}

type AuthedRequest = IncomingMessage & { auth?: AuthInfo };

/**
 * The 2026-07-28 leg of /mcp: stateless, one server instance per request built for its caller by the
 * same factory the 2025-11-25 sessions use, so the two revisions cannot drift apart. 2025-era traffic
 * never reaches it (`legacy: 'reject'`): the route sends that to the sessions, which keep
 * server-sent notifications and requests. The SDK checks the per-request envelope, the
 * MCP-Protocol-Version, Mcp-Method and Mcp-Name headers against the body, and serves MRTR and
 * `subscriptions/listen`.
 */
export function createModernEndpoint(
  makeServer: (caller: CallerInfo, ip: () => string, view: ToolView) => Server,
  opts: { maxBodyBytes: number; log: AppLogger },
): ModernEndpoint {
  const handler = createMcpHandler(
    ({ authInfo }) => {
      const who = authInfo?.extra?.who as ModernCaller | undefined;
      // The route always passes who; a request without it would be a wiring defect, never a guest.
      if (!who) throw new Error('2026-07-28 request reached the MCP handler without its caller');
      return makeServer(who.caller, () => who.ip, who.view);
    },
    {
      legacy: 'reject',
      maxRequestBodySize: opts.maxBodyBytes,
      onerror: (err) => opts.log.debug({ err: err.message }, 'MCP 2026-07-28 request refused or failed'),
    },
  );
  const node = toNodeHandler(handler, {
    maxRequestBodySize: opts.maxBodyBytes,
    onerror: (err) => opts.log.error({ err }, 'MCP 2026-07-28 handler failed'),
  });
  return {
    async serve(req, res, parsedBody, who) {
      (req as AuthedRequest).auth = { token: '', clientId: who.caller.name, scopes: [], extra: { who } };
      await node(req, res, parsedBody);
    },
    notify(kind) {
      if (kind === 'tools') handler.notify.toolsChanged();
      else if (kind === 'prompts') handler.notify.promptsChanged();
      else handler.notify.resourcesChanged();
    },
    close: () => handler.close(),
  };
}
