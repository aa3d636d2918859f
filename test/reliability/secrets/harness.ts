// What the secret-hygiene test needs around the product: the server's console kept aside, a CLI io
// with its own stdin, the audit log with its archives, and polling.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { captureIo, type CapturedIo } from '../../helpers/cli-io.ts';

/** Bunyan's console lines (the server's console) are kept here, not printed into the test output. */
export function captureConsole(): { text(): string; restore(): void } {
  const captured: string[] = [];
  const restores: (() => void)[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write;
    stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
      captured.push(text);
      if (text.startsWith('{"name":')) {
        const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
        done?.();
        return true;
      }
      return (original as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof stream.write;
    restores.push(() => {
      stream.write = original;
    });
  }
  return { text: () => captured.join(''), restore: () => restores.forEach((r) => r()) };
}

export function cliIo(env: NodeJS.ProcessEnv, cwd: string, stdin = ''): CapturedIo {
  return captureIo(env, cwd, { stdin });
}

/** The audit log's records, its rotated archives included (a record being compressed may come twice). */
export function auditRecords(stateDir: string): Record<string, unknown>[] {
  const logs = join(stateDir, 'logs');
  return readdirSync(logs)
    .filter((f) => f.startsWith('audit.log') && !f.endsWith('.tmp'))
    .flatMap((f) => {
      const bytes = readFileSync(join(logs, f));
      return (f.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8').split('\n');
    })
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export async function until(what: string, cond: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
