// Polls a server's /health over real HTTPS from a process of its own, so that what it measures is the
// server's answer time, not the event loop of a test that is busy being several MCP clients at once.
// Run as: node --import tsx health-poller.ts <url> <state dir> <pause ms>; it polls until its stdin
// closes, then prints {"latencies":[...],"statuses":[...]} on stdout. startHealthPoller drives it.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { serverFetch } from './server-process.ts';

export interface HealthPolls {
  /** Milliseconds from sending each request to having read its whole answer. */
  latencies: number[];
  /** Each answer's status, 0 for none within 5 s. */
  statuses: number[];
}

/** Starts polling `${url}/health` in another process; `stop()` ends it and returns what it saw. */
export async function startHealthPoller(
  url: string,
  stateDir: string,
  pauseMs = 20,
): Promise<{ stop(): Promise<HealthPolls> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), url, stateDir, String(pauseMs)],
    { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  // Polling has begun once the first answer is in.
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    void closed.then((code) => reject(new Error(`the health poller exited early (${code})`)));
  });
  return {
    async stop() {
      child.stdin.end();
      await closed;
      const last = out.trim().split('\n').at(-1) ?? '';
      return JSON.parse(last) as HealthPolls;
    },
  };
}

async function main(url: string, stateDir: string, pauseMs: number): Promise<void> {
  // The poller is the measuring instrument: on a shared 2-core runner its own wait for a core must not
  // count as the server's answer time, so it runs ahead of everything else where that is permitted
  // (root, as in CI). The server keeps its normal priority: what is measured is unchanged.
  try {
    setPriority(-10);
  } catch {
    // not permitted: the poller measures at normal priority, as before
  }
  const fetch = serverFetch(stateDir);
  let polling = true;
  process.stdin.on('end', () => (polling = false));
  process.stdin.resume();
  const polls: HealthPolls = { latencies: [], statuses: [] };
  while (polling) {
    const t = performance.now();
    // A frozen server is a slow answer, recorded as such, not a hung poller.
    const status = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) }).then(
      async (res) => (await res.text(), res.status),
      () => 0,
    );
    polls.latencies.push(performance.now() - t);
    polls.statuses.push(status);
    if (polls.latencies.length === 1) process.stdout.write('polling\n');
    await new Promise((r) => setTimeout(r, pauseMs));
  }
  await fetch.close();
  process.stdout.write(`${JSON.stringify(polls)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  void main(process.argv[2] as string, process.argv[3] as string, Number(process.argv[4]));
