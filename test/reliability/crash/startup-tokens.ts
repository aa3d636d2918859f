// A start keeps each client's startup token (clients/<name>/secrets/.token) while it is valid, and
// otherwise writes a fresh one and revokes the one it replaces, so a client has one live startup token. This tracks every token ever seen in a .token
// file (after a completed start and after a kill mid-start, when whatever the file holds could have been
// read) and checks, after a completed start, that only the current one is accepted.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestKernel } from '../../helpers/kernel.ts';
import { bearer } from '../../helpers/oauth.ts';
import type { ScenarioResult } from './harness.ts';

interface Seen {
  client: string;
  token: string;
  checked: number;
}

export class StartupTokens {
  private readonly seen: Seen[] = [];

  constructor(
    private readonly stateDir: string,
    private clients: string[],
  ) {}

  /** The clients whose tokens are checked from now on (a removed client's tokens are checked apart). */
  setClients(clients: string[]): void {
    this.clients = clients;
  }

  private file(client: string): string {
    return join(this.stateDir, 'clients', client, 'secrets', '.token');
  }

  /** Records what every .token file holds now. */
  observe(): void {
    for (const client of this.clients) {
      const f = this.file(client);
      if (!existsSync(f)) continue;
      const token = readFileSync(f, 'utf8').trim();
      if (token && !this.seen.some((s) => s.token === token)) this.seen.push({ client, token, checked: 0 });
    }
  }

  current(client: string): string {
    return readFileSync(this.file(client), 'utf8').trim();
  }

  /** Tokens seen for a client (to check after it was removed). */
  tokensOf(client: string): string[] {
    return this.seen.filter((s) => s.client === client).map((s) => s.token);
  }

  /**
   * After a completed start: the current token of each client works, every earlier one is refused
   * AUTH_REVOKED. Each replaced token is checked twice (at the two starts after it was replaced) to
   * bound the requests of long runs.
   */
  async check(k: TestKernel, cycle: number, result: ScenarioResult): Promise<void> {
    for (const client of this.clients) {
      const current = this.current(client);
      for (const s of this.seen.filter((x) => x.client === client)) {
        if (s.token !== current && s.checked >= 2) continue;
        const want = s.token === current ? 'OK' : 'AUTH_REVOKED';
        const got = await statusOf(k, s.token);
        if (got !== want)
          result.violations.push(
            `cycle ${cycle}: ${s.token === current ? 'the current' : 'a replaced'} startup token of ${client} answers ${got}, expected ${want}`,
          );
        if (s.token !== current) s.checked++;
      }
    }
  }
}

export async function statusOf(k: TestKernel, token: string): Promise<string> {
  const res = await k.fetch(`${k.url}/status`, { headers: bearer(token) });
  const body = (await res.json()) as { error?: string };
  return res.status === 200 ? 'OK' : (body.error ?? String(res.status));
}
