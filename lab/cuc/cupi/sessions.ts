import { randomBytes } from 'node:crypto';

const IDLE_MS = 30 * 60_000;

/** Tomcat-style sessions: a JSESSIONID cookie stands for the Basic credentials that opened it. */
export class SessionTable {
  private readonly sessions = new Map<string, { user: string; lastUsed: number }>();
  /** Basic credential checks performed (a client reusing its cookie adds none). */
  authentications = 0;

  open(user: string): string {
    const id = randomBytes(16).toString('hex').toUpperCase();
    this.sessions.set(id, { user, lastUsed: Date.now() });
    return id;
  }

  /** The user of a live session, refreshing it, or undefined. */
  use(id: string | undefined): string | undefined {
    if (!id) return undefined;
    const s = this.sessions.get(id);
    if (!s) return undefined;
    if (Date.now() - s.lastUsed > IDLE_MS) {
      this.sessions.delete(id);
      return undefined;
    }
    s.lastUsed = Date.now();
    return s.user;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** The session ids handed out and still held (a test searches the server's output for them). */
  get ids(): string[] {
    return [...this.sessions.keys()];
  }
}
