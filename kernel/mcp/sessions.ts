import { randomUUID } from 'node:crypto';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { Server } from '@modelcontextprotocol/server';
import type { AppLogger } from '../logging/app-log.ts';
import type { CallerInfo } from '../sdk/types.ts';

export interface McpSession {
  id: string;
  caller: CallerInfo;
  ip: string;
  transport: NodeStreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
}

export interface SessionLimits {
  /** Sessions one client may hold at once; the oldest idle one is closed to make room. */
  perClient: number;
  /** A session unused this long is closed. */
  idleMs: number;
}

/**
 * MCP 2025-11-25 sessions (initialize, Mcp-Session-Id, server-sent notifications), each bound to the
 * client that opened it. 2026-07-28 requests carry no session and never come here. Kept in memory: MCP session routing is
 * per-instance state (several instances need sticky routing or a shared store, see the architecture page).
 */
export class SessionManager {
  private readonly sessions = new Map<string, McpSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: SessionLimits,
    private readonly log: AppLogger,
  ) {
    this.sweeper = setInterval(() => void this.sweep(), Math.min(60_000, limits.idleMs));
    this.sweeper.unref();
  }

  get(id: string): McpSession | undefined {
    return this.sessions.get(id);
  }

  count(): number {
    return this.sessions.size;
  }

  /** A transport for a new session; the session is recorded once the SDK assigns its id. */
  async open(
    caller: CallerInfo,
    ip: string,
    makeServer: (session: () => McpSession) => Server,
    maxBodyBytes: number,
  ): Promise<McpSession> {
    await this.makeRoom(caller.name);
    const session: McpSession = {
      id: '',
      caller,
      ip,
      transport: undefined as unknown as NodeStreamableHTTPServerTransport,
      server: undefined as unknown as Server,
      lastSeen: Date.now(),
    };
    session.transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session.id = id;
        this.sessions.set(id, session);
        this.log.info({ session: id, client: caller.name }, 'MCP session opened');
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
        this.log.info({ session: id, client: caller.name }, 'MCP session closed');
      },
      maxRequestBodySize: maxBodyBytes,
    });
    const transport = session.transport;
    session.server = makeServer(() => session);
    await session.server.connect(transport);
    // connect() installed the SDK's own close handler: chain to it, never replace it.
    const sdkOnClose = transport.onclose;
    transport.onclose = () => {
      sdkOnClose?.();
      if (session.id) this.sessions.delete(session.id);
    };
    return session;
  }

  /** Sends list_changed notifications to every open session. */
  async notify(kind: 'tools' | 'prompts' | 'resources'): Promise<void> {
    await Promise.allSettled(
      [...this.sessions.values()].map((s) =>
        kind === 'tools'
          ? s.server.sendToolListChanged()
          : kind === 'prompts'
            ? s.server.sendPromptListChanged()
            : s.server.sendResourceListChanged(),
      ),
    );
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.sessions.values()].map((s) => s.transport.close()));
    this.sessions.clear();
  }

  private async makeRoom(client: string): Promise<void> {
    const mine = [...this.sessions.values()]
      .filter((s) => s.caller.name === client)
      .sort((a, b) => a.lastSeen - b.lastSeen);
    while (mine.length >= this.limits.perClient) {
      const oldest = mine.shift() as McpSession;
      this.log.warn(
        { session: oldest.id, client },
        'MCP session limit reached; closing the least recently used session',
      );
      this.sessions.delete(oldest.id);
      await oldest.transport.close();
    }
  }

  private async sweep(): Promise<void> {
    const cutoff = Date.now() - this.limits.idleMs;
    for (const s of [...this.sessions.values()]) {
      if (s.lastSeen < cutoff) {
        this.sessions.delete(s.id);
        this.log.info({ session: s.id, client: s.caller.name }, 'idle MCP session closed');
        await s.transport.close();
      }
    }
  }
}
