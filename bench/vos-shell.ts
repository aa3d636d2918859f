// VOS CLI shell reuse benchmark (issue 6, benchmark 3): ten `show version active` calls on one node
// whose login takes 3 s, through the shell pool, against a baseline measured in the same run (one raw
// ssh2 login alone plus ten command round trips on an already open raw shell), and against the naive
// way (a fresh login per command). Target: pool < 1.5 x (one login + ten command times).
// Run: node --import tsx bench/vos-shell.ts   (LOGIN_MS, COMMAND_MS, CALLS override the defaults)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import type { ClientChannel } from 'ssh2';
import { AuditLog } from '../kernel/audit/audit-log.ts';
import { statePaths } from '../kernel/paths.ts';
import { HostKeyError, Vault } from '../kernel/vault/index.ts';
import { labNode, startLab } from '../lab/index.ts';
import { VosShellPool } from '../plugins/_shared/vos/shell-pool.ts';

const LOGIN_MS = Number(process.env.LOGIN_MS ?? 3_000);
const COMMAND_MS = Number(process.env.COMMAND_MS ?? 200);
const CALLS = Number(process.env.CALLS ?? 10);
const COMMAND = 'show version active';
const HOST = 'cucm-pub.bench.example';

const dir = mkdtempSync(join(tmpdir(), 'ucmcp-vos-bench-'));
const lab = await startLab({
  stateDir: join(dir, 'lab'),
  loginDelayMs: LOGIN_MS,
  commandDelaysMs: { [COMMAND]: COMMAND_MS },
});
const audit = new AuditLog({ path: join(dir, 'audit.log'), maxBytes: 10_000_000, maxFiles: 1 });
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const vault = Vault.open(statePaths(join(dir, 'state')), audit, quiet);

try {
  const node = labNode(lab.info, 'cucm');
  const port = node.ports.ssh as number;
  const os = node.credentials.os;
  if (!os || !node.sshHostKeyFingerprint) throw new Error('the lab CUCM node has no VOS CLI');
  const view = vault.forClient('bench');
  await view.store('cucm', 'os', HOST, {
    username: os.user,
    password: os.password,
    options: { address: `127.0.0.1:${port}` },
  });
  // Trust on first use, as an admin would: the first contact is refused and records the key.
  const probe = new VosShellPool();
  await probe.check(view, 'cucm', HOST).catch((err: unknown) => {
    if (!(err instanceof HostKeyError)) throw err;
  });
  view.hostKeys.decide('cucm', HOST, 'trust', node.sshHostKeyFingerprint);
  await probe.closeAll();

  // Baseline: a raw ssh2 shell, no pool, no checks.
  let t = performance.now();
  const raw = await rawShell(port, os.user, os.password);
  const loginMs = performance.now() - t;
  await raw.run('set cli pagination off');
  const commandMs: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    t = performance.now();
    await raw.run(COMMAND);
    commandMs.push(performance.now() - t);
  }
  raw.close();
  const commandsMs = commandMs.reduce((a, b) => a + b, 0);
  const baselineMs = loginMs + commandsMs;

  // Through the pool: the first call logs in, the others reuse the shell.
  const pool = new VosShellPool();
  t = performance.now();
  for (let i = 0; i < CALLS; i++) await pool.run(view, 'cucm', HOST, COMMAND);
  const pooledMs = performance.now() - t;
  await pool.closeAll();

  // Naive: a fresh login for every command.
  t = performance.now();
  for (let i = 0; i < CALLS; i++) {
    await pool.run(view, 'cucm', HOST, COMMAND);
    await pool.closeAll();
  }
  const naiveMs = performance.now() - t;

  const ratio = pooledMs / baselineMs;
  const rows: [string, number, string][] = [
    ['baseline: one raw login alone', loginMs, ''],
    [`baseline: ${CALLS} command round trips, open raw shell`, commandsMs, ''],
    ['baseline: login + commands', baselineMs, '1.00x'],
    [`pool: ${CALLS} calls, one login`, pooledMs, `${ratio.toFixed(2)}x`],
    [`naive: ${CALLS} calls, a login each`, naiveMs, `${(naiveMs / baselineMs).toFixed(2)}x`],
  ];
  console.log(`VOS CLI shell reuse: login ${LOGIN_MS} ms, "${COMMAND}" +${COMMAND_MS} ms, ${CALLS} calls`);
  console.log(`${'what'.padEnd(50)} ${'ms'.padStart(9)}  vs baseline`);
  for (const [what, ms, rel] of rows) console.log(`${what.padEnd(50)} ${ms.toFixed(0).padStart(9)}  ${rel}`);
  console.log(
    `target: pool < 1.5 x (one login + ${CALLS} command times): ${ratio.toFixed(2)}x ${ratio < 1.5 ? 'PASS' : 'FAIL'}`,
  );
  if (ratio >= 1.5) process.exitCode = 1;
} finally {
  await lab.stop();
  await audit.close();
  rmSync(dir, { recursive: true, force: true });
}

/** The least a client can do: keyboard-interactive login, one shell, write a line, read to the prompt. */
async function rawShell(
  port: number,
  user: string,
  password: string,
): Promise<{ run(command: string): Promise<void>; close(): void }> {
  const client = new ssh2.Client();
  await new Promise<void>((resolve, reject) => {
    client.on('keyboard-interactive', (_n, _i, _l, prompts, finish) => finish(prompts.map(() => password)));
    client.once('ready', () => resolve());
    client.once('error', reject);
    client.connect({ host: '127.0.0.1', port, username: user, tryKeyboard: true, hostVerifier: () => true });
  });
  const channel = await new Promise<ClientChannel>((resolve, reject) =>
    client.shell({ term: 'vt100', cols: 1000, rows: 500 }, (err, ch) => (err ? reject(err) : resolve(ch))),
  );
  let buffer = '';
  let wake: (() => void) | undefined;
  channel.on('data', (d: Buffer) => {
    buffer += d.toString('utf8');
    wake?.();
  });
  const untilPrompt = (): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (/\nadmin:$|^admin:$/.test(buffer)) {
          wake = undefined;
          resolve();
        }
      };
      wake = check;
      check();
    });
  await untilPrompt();
  return {
    async run(command) {
      buffer = '';
      channel.write(`${command}\n`);
      await untilPrompt();
    },
    close: () => client.end(),
  };
}
