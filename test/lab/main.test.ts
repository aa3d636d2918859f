import assert from 'node:assert/strict';
import type { ChildProcessByStdio } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { LabInfo } from '../../lab/index.ts';
import { labTrustedPem } from '../../lab/index.ts';
import { call, repoRoot, stateDir } from './helpers.ts';

type Child = ChildProcessByStdio<null, Readable, Readable>;

/** Every lab this file started: a test that fails half-way must not leave one running. */
const started: { child: Child; detached: boolean }[] = [];

function stopLeftovers(): void {
  for (const { child, detached } of started) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue;
    try {
      if (detached) process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

function start(
  command: string,
  args: string[],
  infoPath: string,
  detached = false,
  env: Record<string, string> = {},
): {
  child: Child;
  ready: Promise<{ ms: number; stdout: string }>;
  stdout: () => string;
  stderr: () => string;
} {
  const began = Date.now();
  const child = spawn(command, args, {
    cwd: repoRoot,
    detached,
    env: { ...process.env, LAB_INFO: infoPath, LAB_STATE_DIR: stateDir, LAB_LOGIN_DELAY_MS: '50', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push({ child, detached });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const ready = new Promise<{ ms: number; stdout: string }>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('Press Ctrl-C to stop.')) resolve({ ms: Date.now() - began, stdout });
    });
    child.on('exit', (code) => reject(new Error(`exited ${String(code)} before ready: ${stdout}${stderr}`)));
  });
  return { child, ready, stdout: () => stdout, stderr: () => stderr };
}

function exited(child: Child): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
}

function portClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.on('error', () => resolve(true));
  });
}

describe('npm run lab', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lab-main-'));
  });
  after(() => {
    stopLeftovers();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts every node within 5 s, prints them, writes LAB_INFO, and stops on Ctrl-C', async () => {
    const infoPath = join(dir, 'npm-info.json');
    // Own process group: Ctrl-C in a terminal signals the whole foreground group (npm, sh and node).
    const lab = start('npm', ['run', 'lab', '--silent'], infoPath, true);
    const { ms, stdout } = await lab.ready;
    assert.ok(ms < 5_000, `ready in ${ms} ms`);
    const info = JSON.parse(readFileSync(infoPath, 'utf8')) as LabInfo;
    assert.deepEqual([...new Set(info.nodes.map((n) => n.product))], ['cucm', 'imp', 'cuc', 'phone']);
    for (const n of info.nodes)
      assert.ok(stdout.includes(n.address), `stdout names ${n.name} at ${n.address}`);
    assert.match(stdout, /axladmin \/ Lab-Axl-Pass1!/);
    const cuc = info.nodes.find((n) => n.product === 'cuc');
    assert.ok(cuc?.urls.cupi && cuc.credentials.cupi);
    const version = await call(`${cuc.urls.cupi}version/product`, {
      ca: labTrustedPem(info),
      auth: cuc.credentials.cupi,
      headers: { accept: 'application/json' },
    });
    assert.equal(version.status, 200, 'the CA in LAB_INFO verifies the nodes');

    process.kill(-(lab.child.pid as number), 'SIGINT');
    await exited(lab.child);
    const ports = info.nodes.flatMap((n) => Object.values(n.ports) as number[]);
    const deadline = Date.now() + 3_000;
    let closed = false;
    while (!closed && Date.now() < deadline) {
      closed = (await Promise.all(ports.map(portClosed))).every(Boolean);
      if (!closed) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(closed, 'every port is closed after Ctrl-C');
    assert.match(lab.stdout(), /SIGINT: stopping the lab/);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`the entry npm runs (node --import tsx lab/main.ts) exits 0 on ${signal}`, async () => {
      const lab = start(process.execPath, ['--import', 'tsx', 'lab/main.ts'], join(dir, `${signal}.json`));
      await lab.ready;
      lab.child.kill(signal);
      const { code } = await exited(lab.child);
      assert.equal(code, 0);
    });
  }

  it('LAB_WEAKNESSES seeds exactly the ids listed, and says so', async () => {
    const ids = ['cuc-tomcat-self-signed', 'cucm-tls-min-1.0'];
    const infoPath = join(dir, 'weaknesses.json');
    const lab = start(process.execPath, ['--import', 'tsx', 'lab/main.ts'], infoPath, false, {
      LAB_WEAKNESSES: ` ${ids.join(' , ')} `,
    });
    const { stdout } = await lab.ready;
    const info = JSON.parse(readFileSync(infoPath, 'utf8')) as LabInfo;
    assert.deepEqual(info.weaknesses, [...ids].sort());
    assert.equal(info.certificates, 'mixed');
    assert.match(
      stdout,
      /LAB_WEAKNESSES: 2 weaknesses seeded \(weak profile data\): cuc-tomcat-self-signed, cucm-tls-min-1\.0/,
    );
    lab.child.kill('SIGTERM');
    assert.equal((await exited(lab.child)).code, 0);
  });

  it('an unknown LAB_WEAKNESSES id stops the lab with a message naming it', async () => {
    const lab = start(process.execPath, ['--import', 'tsx', 'lab/main.ts'], join(dir, 'bad.json'), false, {
      LAB_WEAKNESSES: 'cucm-tls-min-1.0,no-such-weakness',
    });
    await assert.rejects(lab.ready, /exited 2 before ready/);
    assert.match(
      lab.stderr(),
      /^lab: unknown lab weakness no-such-weakness; known ids are listed in lab\/weaknesses\//m,
    );
    assert.doesNotMatch(lab.stderr(), /\n\s+at /, 'no stack trace');
  });
});
