import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { Server } from '@modelcontextprotocol/server';

/** What initialize told the server: all a new server copy needs to serve the session's later requests. */
export interface InitializeFacts {
  /** The version the client asked for (the server negotiates the same one again from it). */
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: Record<string, unknown>;
}

/** The initialize facts of a request body, when it is an initialize request. */
export function initializeFactsOf(parsed: unknown): InitializeFacts | undefined {
  const m = (Array.isArray(parsed) ? parsed[0] : parsed) as
    { method?: unknown; params?: Record<string, unknown> } | undefined;
  if (!m || m.method !== 'initialize' || typeof m.params !== 'object' || m.params === null) return undefined;
  const p = m.params;
  return {
    protocolVersion: typeof p.protocolVersion === 'string' ? p.protocolVersion : '',
    capabilities: (p.capabilities ?? {}) as Record<string, unknown>,
    clientInfo: (p.clientInfo ?? {}) as Record<string, unknown>,
  };
}

interface TransportInternals {
  _webStandardTransport?: { _initialized?: unknown; sessionId?: unknown };
}
interface ServerInternals {
  _oninitialize?: (request: { params: Record<string, unknown> }) => Promise<unknown>;
}

/**
 * Puts a new server and transport (on an instance that did not see the session's initialize) in the
 * state initialize left the original pair in, so that they serve the session's later requests.
 *
 * The SDK (v2.4) has no public way to do this: its Streamable HTTP transport refuses any request but
 * initialize until it has handled one ("Server not initialized"), and the Server learns the client's
 * capabilities only from initialize. So this touches two SDK internals, and only these: the transport's
 * `_initialized` flag and `sessionId` (exactly what its initialize branch sets), and the server's own
 * initialize handler `_oninitialize`, called with the facts the original initialize carried (it sets
 * the client's capabilities, clientInfo and the negotiated version, and tells the transport that
 * version). Both are checked to exist, so an SDK that renamed them fails here, loudly, in the
 * scale-out tests, rather than serving a half-restored session.
 */
export async function restoreInitialized(
  transport: NodeStreamableHTTPServerTransport,
  server: Server,
  sessionId: string,
  facts: InitializeFacts,
): Promise<void> {
  const inner = (transport as unknown as TransportInternals)._webStandardTransport;
  const oninitialize = (server as unknown as ServerInternals)._oninitialize;
  if (!inner || !('_initialized' in inner) || typeof oninitialize !== 'function')
    throw new Error('this MCP SDK cannot restore a session on another instance (internals changed)');
  inner._initialized = true;
  inner.sessionId = sessionId;
  await oninitialize.call(server, {
    params: {
      protocolVersion: facts.protocolVersion,
      capabilities: facts.capabilities,
      clientInfo: facts.clientInfo,
    },
  });
}
