import type { RedisConnection } from './redis-connection.ts';
import type { NoticeBus } from './state-backend.ts';

/**
 * Notices through the store's PUBLISH/SUBSCRIBE, on the connection kept for it. At most once: a notice
 * sent while an instance is disconnected is lost to it, which the TTLs and the documents' reload after
 * a reconnect repair. Every handler runs on its own, so one that throws does not stop the others.
 */
export class RedisNoticeBus implements NoticeBus {
  private readonly handlers = new Map<string, Set<(message: string) => void>>();

  constructor(private readonly conn: RedisConnection) {
    // A subscription asked for while the notice connection was down was refused (no offline queue), and
    // ioredis resubscribes only what the server had accepted: every channel is asked for again on ready.
    conn.subscriber.on('ready', () => {
      const channels = [...this.handlers.keys()].map((c) => this.head() + c);
      if (channels.length > 0) conn.subscriber.subscribe(...channels).catch(() => undefined);
    });
    conn.subscriber.on('message', (channel: string, message: string) => {
      if (!channel.startsWith(this.head())) return;
      const set = this.handlers.get(channel.slice(this.head().length));
      if (!set) return;
      for (const h of [...set]) {
        try {
          h(message);
        } catch {
          // A handler's failure is its own; the notice still reaches the others.
        }
      }
    });
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.conn.run((c) => c.publish(this.head() + channel, message));
  }

  subscribe(channel: string, onMessage: (message: string) => void): () => void {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      // A failure now (the store is down) is made good when the connection is ready again (above).
      this.conn.subscriber.subscribe(this.head() + channel).catch(() => undefined);
    }
    set.add(onMessage);
    return () => {
      const s = this.handlers.get(channel);
      if (!s) return;
      s.delete(onMessage);
      if (s.size === 0) {
        this.handlers.delete(channel);
        this.conn.subscriber.unsubscribe(this.head() + channel).catch(() => undefined);
      }
    };
  }

  private head(): string {
    return this.conn.key('n:');
  }
}
