import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { JSONRPCMessage, Server } from '@modelcontextprotocol/server';
import type { AppLogger } from '../logging/app-log.ts';
import type { CallerInfo } from '../sdk/types.ts';
import type { StateBackend } from '../store/backend/state-backend.ts';
import { FULL_VIEW, type ToolView } from './toolsets.ts';
import { initializeFactsOf, restoreInitialized, type InitializeFacts } from './session-restore.ts';

export interface McpSession {
  id: string;
  caller: CallerInfo;
  ip: string;
  transport: NodeStreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
  /** The tool view initialize asked for (kept for a copy of the session on another instance). */
  view: ToolView;
  /** Shared store only: what initialize told the server, and when the record was last written. */
  init?: InitializeFacts;
  stored: number;
  /** Shared store only: requests this copy sent the client (elicitation), by wire id -> the SDK's id. */
  pending: Map<string, { id: string | number; at: number }>;
}

export interface SessionLimits {
  /** Sessions one client may hold at once; the oldest idle one is closed to make room. */
  perClient: number;
  /** A session unused this long is closed. */
  idleMs: number;
}

/** Builds the MCP server of a session (the session is read when the server needs its caller's address). */
export type MakeSessionServer = (caller: CallerInfo, view: ToolView, session: () => McpSession) => Server;

/** The session's record in the shared store (`session:<id>`). */
interface SessionRecord {
  v: 1;
  id: string;
  caller: CallerInfo;
  view: { toolsets: string[][]; readOnly: boolean };
  init: InitializeFacts;
  lastSeen: number;
}

/** A session's record is written again at most this often (its TTL is the idle timeout). */
const REFRESH_MS = 5000;
/** Requests a copy may have waiting for the client's answer; older ones are forgotten first. */
const MAX_PENDING = 256;
/** Answers (JSON-RPC responses) a client posted to an instance that did not send the request. */
const RESPONSES_CHANNEL = 'mcp.session.response';
/** A session deleted (or evicted) on one instance: every other drops its copy. */
const CLOSED_CHANNEL = 'mcp.session.closed';
/** A client's notifications/cancelled: the request it names may be running on another instance. */
const CANCELLED_CHANNEL = 'mcp.session.cancelled';

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const sessionKey = (id: string) => `session:${id}`;
const clientPrefix = (client: string) => `session-of:${encodeURIComponent(client)}:`;

export type SessionLookup = { session: McpSession } | { refused: 'unknown' | 'foreign' };

/**
 * MCP 2025-11-25 sessions (initialize, Mcp-Session-Id, server-sent notifications), each bound to the
 * client that opened it. 2026-07-28 requests carry no session and never come here.
 *
 * With the local state backend they live in this process's memory, as they always did. With a shared
 * store (several instances behind a balancer), initialize also writes the session's durable facts to
 * the store (`session:<id>`, expiring after the idle timeout, written again as it is used), and an
 * instance that gets a request for a session it does not hold builds its own copy from that record:
 * any instance serves any request of a session. What cannot be shared stays on the instance that has
 * it: a GET event stream (list_changed goes to the streams each instance holds), and a tool call's
 * requests to the client (elicitation), whose answers come back as new POSTs that may land elsewhere:
 * those are passed on over the bus to the instance whose copy sent the request (see `serve`).
 */
export class SessionManager {
  private readonly sessions = new Map<string, McpSession>();
  private readonly building = new Map<string, Promise<McpSession>>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly unsubscribe: (() => void)[] = [];
  /** The shared store, when there is one; undefined keeps every session in memory only. */
  private readonly shared: StateBackend | undefined;
  /** This manager among the instances' (its own notices come back to it). */
  private readonly copyId = randomBytes(6).toString('base64url');

  constructor(
    private readonly limits: SessionLimits,
    private readonly log: AppLogger,
    state?: StateBackend,
  ) {
    this.shared = state?.kind === 'redis' ? state : undefined;
    this.sweeper = setInterval(() => void this.sweep(), Math.min(60_000, limits.idleMs));
    this.sweeper.unref();
    if (this.shared) {
      this.unsubscribe.push(
        this.shared.bus.subscribe(RESPONSES_CHANNEL, (m) => this.deliverRelayed(m)),
        this.shared.bus.subscribe(CLOSED_CHANNEL, (m) => void this.dropCopy(m)),
        this.shared.bus.subscribe(CANCELLED_CHANNEL, (m) => this.deliverCancel(m)),
      );
    }
  }

  get(id: string): McpSession | undefined {
    return this.sessions.get(id);
  }

  count(): number {
    return this.sessions.size;
  }

  /**
   * The session a request names, for this caller: the copy held here, or (shared store) one built
   * from the session's record. `unknown`: no such session (or it expired); `foreign`: another
   * client's (the route answers both alike). Throws StateStoreUnavailableError when the store is down.
   */
  async find(
    id: string,
    caller: CallerInfo,
    ip: string,
    makeServer: MakeSessionServer,
    maxBodyBytes: number,
  ): Promise<SessionLookup> {
    let session = this.sessions.get(id);
    if (!session && this.shared) {
      // Ids this server gives are UUIDs: anything else is unknown without asking the store.
      if (!SESSION_ID.test(id)) return { refused: 'unknown' };
      const raw = await this.shared.records.get(sessionKey(id));
      if (raw === undefined) return { refused: 'unknown' };
      const record = parseRecord(raw);
      if (!record || record.id !== id) return { refused: 'unknown' };
      if (record.caller.name !== caller.name) return { refused: 'foreign' };
      session = await this.build(record, ip, makeServer, maxBodyBytes);
    }
    if (!session) return { refused: 'unknown' };
    if (session.caller.name !== caller.name) return { refused: 'foreign' };
    session.lastSeen = Date.now();
    session.ip = ip;
    if (!(await this.refresh(session))) return { refused: 'unknown' };
    return { session };
  }

  /** A transport for a new session; the session is recorded once the SDK assigns its id. */
  async open(
    caller: CallerInfo,
    ip: string,
    makeServer: MakeSessionServer,
    maxBodyBytes: number,
    view: ToolView = FULL_VIEW,
    parsed?: unknown,
  ): Promise<McpSession> {
    this.shared?.assertAvailable();
    const init = initializeFactsOf(parsed);
    // Shared: only an initialize makes room (anything else is refused 400 without a session).
    if (!this.shared || init) await this.makeRoom(caller.name);
    const session = this.blank(caller, ip, view);
    session.init = init;
    session.transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: async (id) => {
        session.id = id;
        this.sessions.set(id, session);
        // Recorded before initialize is answered: the client's next request may go to another instance.
        if (this.shared) await this.store(session);
        this.log.info({ session: id, client: caller.name }, 'MCP session opened');
      },
      onsessionclosed: (id) => this.closed(id, caller.name),
      maxRequestBodySize: maxBodyBytes,
    });
    await this.connect(session, makeServer);
    return session;
  }

  /**
   * Hands a request to the session's transport. With a shared store, a client's answers to requests
   * the server sent it (elicitation inside a tool call) are routed first: the SDK matches an answer to
   * the pending request of the transport that sent it, and that transport is on whichever instance runs
   * the tool call. An answer for a request this copy did not send is published on the bus, where the
   * copy that sent it (and only that one: each copy's request ids carry a prefix of its own) hands it to
   * its server; the client is answered 202 as the SDK would. A lost notice leaves the tool waiting until
   * its elicitation times out, as a client that never answers does.
   */
  async serve(
    session: McpSession,
    req: IncomingMessage,
    res: ServerResponse,
    parsed: unknown,
  ): Promise<void> {
    const all: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
    // Anything but JSON objects is the SDK's to refuse (400), untouched.
    if (this.shared && parsed !== undefined && all.every((m) => typeof m === 'object' && m !== null)) {
      const messages = all as Record<string, unknown>[];
      // A cancellation goes to every copy too: the request it stops runs wherever it landed.
      for (const m of messages)
        if (m.method === 'notifications/cancelled')
          await this.shared.bus.publish(
            CANCELLED_CHANNEL,
            JSON.stringify({ sid: session.id, client: session.caller.name, from: this.copyId, message: m }),
          );
      if (messages.some(isResponse)) {
        const rest: Record<string, unknown>[] = [];
        for (const m of messages) {
          if (!isResponse(m)) {
            rest.push(m);
            continue;
          }
          const mine = session.pending.get(String(m.id));
          if (mine) {
            session.pending.delete(String(m.id));
            rest.push({ ...m, id: mine.id });
          } else if (typeof m.id === 'string' && m.id.startsWith('srv.')) {
            await this.shared.bus.publish(
              RESPONSES_CHANNEL,
              JSON.stringify({ sid: session.id, client: session.caller.name, message: m }),
            );
          }
        }
        if (rest.length === 0) {
          res.writeHead(202).end();
          return;
        }
        parsed = Array.isArray(parsed) ? rest : rest[0];
      }
    }
    await session.transport.handleRequest(req, res, parsed);
  }

  /** Sends list_changed notifications to every open session (held here). */
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

  /** Closes the copies held here; with a shared store the sessions live on (other instances serve them). */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    for (const u of this.unsubscribe.splice(0)) u();
    await Promise.allSettled([...this.sessions.values()].map((s) => s.transport.close()));
    this.sessions.clear();
  }

  private blank(caller: CallerInfo, ip: string, view: ToolView): McpSession {
    return {
      id: '',
      caller,
      ip,
      transport: undefined as unknown as NodeStreamableHTTPServerTransport,
      server: undefined as unknown as Server,
      lastSeen: Date.now(),
      view,
      stored: 0,
      pending: new Map(),
    };
  }

  private async connect(session: McpSession, makeServer: MakeSessionServer): Promise<void> {
    const transport = session.transport;
    session.server = makeServer(session.caller, session.view, () => session);
    await session.server.connect(transport);
    // connect() installed the SDK's own close handler: chain to it, never replace it.
    const sdkOnClose = transport.onclose;
    transport.onclose = () => {
      sdkOnClose?.();
      if (session.id && this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    };
    if (this.shared) this.tagRequests(session);
  }

  /**
   * Each copy's requests to the client get ids of their own (`srv.<copy>.<SDK id>`): two instances'
   * copies of one session both start counting at 0, and an answer must reach the copy that asked.
   */
  private tagRequests(session: McpSession): void {
    const prefix = `srv.${randomBytes(6).toString('base64url')}.`;
    const send = session.transport.send.bind(session.transport);
    session.transport.send = (message, options) => {
      const m = message as Record<string, unknown>;
      if (typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number')) {
        const wire = `${prefix}${m.id}`;
        if (session.pending.size >= MAX_PENDING) {
          const oldest = session.pending.keys().next().value as string;
          session.pending.delete(oldest);
        }
        session.pending.set(wire, { id: m.id, at: Date.now() });
        return send({ ...m, id: wire } as JSONRPCMessage, options);
      }
      // The server gives up on one of its requests (timeout, the tool call aborted): name it as sent.
      const params = m.params as { requestId?: unknown } | undefined;
      if (m.method === 'notifications/cancelled' && params?.requestId !== undefined) {
        for (const [wire, p] of session.pending) {
          if (p.id !== params.requestId) continue;
          session.pending.delete(wire);
          return send({ ...m, params: { ...params, requestId: wire } } as unknown as JSONRPCMessage, options);
        }
      }
      return send(message, options);
    };
  }

  /** A copy of a session recorded by another instance (one build at a time per session). */
  private async build(
    record: SessionRecord,
    ip: string,
    makeServer: MakeSessionServer,
    maxBodyBytes: number,
  ): Promise<McpSession> {
    const running = this.building.get(record.id);
    if (running) return running;
    const build = (async () => {
      const view: ToolView = {
        toolsets: record.view.toolsets.map((s) => new Set(s)),
        readOnly: record.view.readOnly,
      };
      const session = this.blank(record.caller, ip, view);
      session.id = record.id;
      session.init = record.init;
      session.stored = Date.now();
      session.transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => record.id,
        onsessionclosed: (id) => this.closed(id, record.caller.name),
        maxRequestBodySize: maxBodyBytes,
      });
      await this.connect(session, makeServer);
      await restoreInitialized(session.transport, session.server, record.id, record.init);
      this.sessions.set(record.id, session);
      this.log.info(
        { session: record.id, client: record.caller.name },
        'MCP session resumed on this instance',
      );
      return session;
    })();
    this.building.set(record.id, build);
    try {
      return await build;
    } finally {
      this.building.delete(record.id);
    }
  }

  /** Writes the session's record (and its client's index entry), expiring after the idle timeout. */
  private async store(session: McpSession): Promise<void> {
    const shared = this.shared as StateBackend;
    const record: SessionRecord = {
      v: 1,
      id: session.id,
      caller: session.caller,
      view: { toolsets: session.view.toolsets.map((s) => [...s]), readOnly: session.view.readOnly },
      init: session.init ?? { protocolVersion: '', capabilities: {}, clientInfo: {} },
      lastSeen: session.lastSeen,
    };
    await Promise.all([
      shared.records.set(sessionKey(session.id), JSON.stringify(record), this.limits.idleMs),
      shared.records.set(
        `${clientPrefix(session.caller.name)}${session.id}`,
        String(session.lastSeen),
        this.limits.idleMs,
      ),
    ]);
    session.stored = Date.now();
  }

  /**
   * Keeps the record alive while the session is used (at most every few seconds), and finds out that
   * it was deleted or evicted through another instance (a lost notice costs at most REFRESH_MS).
   */
  private async refresh(session: McpSession): Promise<boolean> {
    if (!this.shared || Date.now() - session.stored < REFRESH_MS) return true;
    if ((await this.shared.records.get(sessionKey(session.id))) === undefined) {
      await this.drop(session);
      return false;
    }
    await this.store(session);
    return true;
  }

  /** DELETE of a session (on whichever instance got it): its record goes, and every copy with it. */
  private async closed(id: string, client: string): Promise<void> {
    this.sessions.delete(id);
    this.log.info({ session: id, client }, 'MCP session closed');
    if (!this.shared) return;
    await this.forget(id, client);
  }

  private async forget(id: string, client: string): Promise<void> {
    const shared = this.shared as StateBackend;
    await Promise.all([
      shared.records.delete(sessionKey(id)),
      shared.records.delete(`${clientPrefix(client)}${id}`),
    ]);
    await shared.bus.publish(CLOSED_CHANNEL, id);
  }

  private async dropCopy(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (s) await this.drop(s);
  }

  private async drop(session: McpSession): Promise<void> {
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    await session.transport.close().catch(() => undefined);
  }

  /** An answer relayed by another instance: handed to this copy's server when this copy asked. */
  private deliverRelayed(raw: string): void {
    let note: { sid?: unknown; client?: unknown; message?: Record<string, unknown> };
    try {
      note = JSON.parse(raw) as typeof note;
    } catch {
      return;
    }
    const s = typeof note.sid === 'string' ? this.sessions.get(note.sid) : undefined;
    const m = note.message;
    if (!s || s.caller.name !== note.client || !m || !isResponse(m)) return;
    const mine = s.pending.get(String(m.id));
    if (!mine) return;
    s.pending.delete(String(m.id));
    s.transport.onmessage?.({ ...m, id: mine.id } as JSONRPCMessage);
  }

  /** A cancellation posted to another instance: handed to this copy's server (a no-op if it runs nothing). */
  private deliverCancel(raw: string): void {
    let note: { sid?: unknown; client?: unknown; from?: unknown; message?: Record<string, unknown> };
    try {
      note = JSON.parse(raw) as typeof note;
    } catch {
      return;
    }
    if (note.from === this.copyId || typeof note.sid !== 'string') return;
    const s = this.sessions.get(note.sid);
    if (!s || s.caller.name !== note.client || note.message?.method !== 'notifications/cancelled') return;
    s.transport.onmessage?.(note.message as JSONRPCMessage);
  }

  private async makeRoom(client: string): Promise<void> {
    if (this.shared) return this.makeSharedRoom(client);
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

  /** The per-client limit counts the client's sessions in the store, whichever instance opened them. */
  private async makeSharedRoom(client: string): Promise<void> {
    const shared = this.shared as StateBackend;
    const prefix = clientPrefix(client);
    const keys = await shared.records.keys(prefix);
    if (keys.length < this.limits.perClient) return;
    const seen = await Promise.all(
      keys.map(async (k) => ({ id: k.slice(prefix.length), at: Number((await shared.records.get(k)) ?? 0) })),
    );
    seen.sort((a, b) => a.at - b.at);
    while (seen.length >= this.limits.perClient) {
      const oldest = seen.shift() as { id: string };
      this.log.warn(
        { session: oldest.id, client },
        'MCP session limit reached; closing the least recently used session',
      );
      await this.forget(oldest.id, client);
    }
  }

  private async sweep(): Promise<void> {
    const cutoff = Date.now() - this.limits.idleMs;
    for (const s of [...this.sessions.values()]) {
      if (s.lastSeen < cutoff) {
        this.sessions.delete(s.id);
        // With a shared store only this copy goes: the record expires on its own once idle everywhere.
        this.log.info({ session: s.id, client: s.caller.name }, 'idle MCP session closed');
        await s.transport.close();
      }
    }
  }
}

function isResponse(m: Record<string, unknown>): boolean {
  return (
    typeof m === 'object' &&
    m !== null &&
    m.method === undefined &&
    (typeof m.id === 'string' || typeof m.id === 'number') &&
    ('result' in m || 'error' in m)
  );
}

function parseRecord(raw: string): SessionRecord | undefined {
  try {
    const r = JSON.parse(raw) as SessionRecord;
    return r.v === 1 && typeof r.id === 'string' && typeof r.caller?.name === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}
