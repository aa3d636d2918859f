// Shared by the hostile-node tests: canaries that show a file was read or a connection was made,
// memory and disk measurements, and the product stack prepared for one attack after another.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HostileOptions } from '../../../lab/index.ts';
import type { ProductStack, Role } from '../../helpers/product-stack.ts';

/** A local file holding a random secret: any answer or error that carries the secret read the file. */
export interface CanaryFile {
  path: string;
  url: string;
  secret: string;
  cleanup(): void;
}

export function canaryFile(): CanaryFile {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-canary-'));
  const secret = `CANARY-${randomBytes(12).toString('hex')}`;
  const path = join(dir, 'canary.xsd');
  writeFileSync(path, `${secret}\n`);
  return {
    path,
    url: pathToFileURL(path).href,
    secret,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A loopback listener that must never be reached: it counts connections and answers nothing. */
export interface LoopbackTrap {
  url: string;
  connections(): number;
  close(): Promise<void>;
}

export async function loopbackTrap(): Promise<LoopbackTrap> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hostile.xsd`,
    connections: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const MiB = 1024 * 1024;

export function rssBytes(): number {
  global.gc?.();
  return process.memoryUsage().rss;
}

/** Every file below `dir` with its size (folders walked, links not followed). */
export function filesBelow(dir: string): { path: string; size: number }[] {
  const out: { path: string; size: number }[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push({ path: p, size: statSync(p, { throwIfNoEntry: false })?.size ?? 0 });
    }
  };
  walk(dir);
  return out;
}

/**
 * Arms one attack on the named nodes, calls a tool that must fail, disarms, and returns the error with
 * the time it took. The node is back to normal afterwards whatever happened.
 */
export async function refusedUnder(
  s: ProductStack,
  attack: HostileOptions,
  nodes: string[],
  call: { role?: Role; tool: string; args: Record<string, unknown> },
): Promise<{ error: string; message: string; ms: number }> {
  s.lab.state.hostile.set(attack, nodes);
  const started = performance.now();
  try {
    const r = await s.fails(call.role ?? 'admin', call.tool, call.args);
    return { ...r, ms: performance.now() - started };
  } finally {
    s.lab.state.hostile.clear();
  }
}

/** The message names none of the canaries. */
export function assertNoLeak(message: string, ...secrets: string[]): void {
  for (const secret of secrets) assert.ok(!message.includes(secret), `the error leaks ${secret}: ${message}`);
}
