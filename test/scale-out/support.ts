// What the scale-out tests share: the reason to skip them (no redis-server here), polling, and the
// 2026-07-28 client (stateless, no session) through the balancer, whose every request may land on
// another instance.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FetchLike } from '@modelcontextprotocol/client';
import { PROJECT_ROOT } from '../../kernel/paths.ts';
import type { Cluster } from '../helpers/cluster.ts';
import { connectModern, type ModernClient } from '../helpers/mcp-client-v2.ts';
import { redisAvailable } from '../helpers/redis-server.ts';

/** Undefined when the tests can run; else the reason, printed once per file. */
export function scaleOutSkip(): string | undefined {
  const reason = redisAvailable();
  if (reason) console.log(`skipped: ${reason} (the shared-state tests need a real Redis-protocol server)`);
  return reason;
}

/**
 * Polls `probe` every `everyMs` until it returns true; resolves with the ms it took, or rejects with
 * `what` after `timeoutMs`.
 */
export async function waitFor(
  probe: () => Promise<boolean>,
  o: { timeoutMs: number; everyMs?: number; what: string },
): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - t0;
    if (performance.now() - t0 > o.timeoutMs) throw new Error(`${o.what} (after ${o.timeoutMs} ms)`);
    await sleep(o.everyMs ?? 20);
  }
}

/** A 2026-07-28 client for `client` through the balancer. */
export function modernClient(c: Cluster, client: string): Promise<ModernClient> {
  return connectModern(c.kernel, c.token(client), { fetch: c.fetch as unknown as FetchLike });
}

export interface ToolOutcome {
  ok: boolean;
  /** The error code of a refusal (in the result, or the JSON-RPC error of an HTTP refusal). */
  error?: string;
  structured?: Record<string, unknown>;
  message?: string;
}

/** Calls a tool and tells success from refusal without throwing (an HTTP 429 is a refusal too). */
export async function callTool(
  m: ModernClient,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolOutcome> {
  try {
    const r = (await m.client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      structuredContent?: Record<string, unknown>;
      content?: { type: string; text?: string }[];
    };
    const structured = r.structuredContent ?? {};
    if (r.isError)
      return {
        ok: false,
        error: String(structured.error ?? 'ERROR'),
        structured,
        message: String(structured.message ?? r.content?.[0]?.text ?? ''),
      };
    return { ok: true, structured };
  } catch (err) {
    const message = (err as Error).message;
    // The code of an HTTP refusal is quoted in the message (e.g. "RATE_LIMITED: rate limit of...").
    const code = /\b([A-Z]+_[A-Z_]+)\b/.exec(message)?.[1];
    return { ok: false, error: code ?? 'THROWN', message };
  }
}

/**
 * A profile `name` in the state directory: the shipped `base` profile with every rate limit out of reach
 * (a test of something else must not meet the profile's per-minute limits).
 */
export function writeUnlimitedProfile(stateDir: string, name: string, base: string): void {
  const profile = JSON.parse(readFileSync(join(PROJECT_ROOT, `profiles/_default/${base}.json`), 'utf8')) as {
    rateLimits: Record<string, Record<string, unknown>>;
  };
  const huge = { limit: 1_000_000, windowSeconds: 1 };
  const rateLimits = Object.fromEntries(
    Object.entries({ common: {}, infra: {}, ...profile.rateLimits }).map(([module, services]) => [
      module,
      Object.fromEntries([...Object.keys(services), 'default'].map((s) => [s, huge])),
    ]),
  );
  mkdirSync(join(stateDir, 'profiles'), { recursive: true });
  writeFileSync(join(stateDir, 'profiles', `${name}.json`), JSON.stringify({ ...profile, name, rateLimits }));
}
