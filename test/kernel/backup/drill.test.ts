// THE DRILL (issue 9): run the server, let it back up, wipe the state, restore with --replace (answering
// yes through a pseudo-terminal) while the server still runs, restart: clients, credentials, tokens'
// validity, profiles and reports are as before, compared by content.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import bunyan from 'bunyan';
import { AuditLog } from '../../../kernel/audit/audit-log.ts';
import { PROJECT_ROOT, statePaths } from '../../../kernel/paths.ts';
import { Vault } from '../../../kernel/vault/index.ts';
import { pinnedFetch } from '../../helpers/https-client.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { seedServerKeys } from '../../helpers/keys.ts';
import { connectMcp, startupToken } from '../../helpers/mcp-client.ts';
import { basicAuth, bearer, clientFiles, postForm } from '../../helpers/oauth.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { treeHash } from './helpers.ts';

const CREDENTIAL = { username: 'axladmin', password: 'Drill-Axl-Pw-93b1' };
const AXL_HOST = 'cucm-pub.lab.example';
const REPORT = '# Drill report\n\n## Findings\n\nEverything restored.\n';

/** What the drill compares: every restorable file whose content a restart does not legitimately change. */
const compared = (rel: string): boolean =>
  /^(\.env|secrets|clients|profiles|reports)(\/|$)/.test(rel) &&
  !rel.startsWith('profiles/_default') &&
  // Rewritten at every start: the startup token, the record of its jti, the ledger of issued jtis.
  !/^clients\/[^/]+\/secrets\/(\.token|registration\.json|issued_tokens\.json)$/.test(rel);

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const addr = srv.address();
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return typeof addr === 'object' && addr ? addr.port : 0;
}

interface ServerProc {
  child: ChildProcess;
  exited: Promise<number | null>;
}

/** `npm start` as a real process (the restore must be able to SIGTERM it). */
async function startServer(stateDir: string): Promise<ServerProc> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'kernel/main.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, STATE_DIR: stateDir, ENV_FILE: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening on')) resolve();
    });
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    void exited.then((code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
  return { child, exited };
}

async function until<T>(what: string, fn: () => T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs the restore under a pseudo-terminal (util-linux `script`), answering `answer` to its question. */
function restoreOnTerminal(
  args: string[],
  env: NodeJS.ProcessEnv,
  answer: string,
): Promise<{ code: number | null; out: string }> {
  const quoted = [process.execPath, '--import', 'tsx', 'scripts/backup_restore.ts', ...args]
    .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  const child = spawn('script', ['-qec', quoted, '/dev/null'], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let answered = false;
  const onData = (d: Buffer): void => {
    out += d.toString();
    if (!answered && out.includes('[y/N]')) {
      answered = true;
      child.stdin.write(`${answer}\r`);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

describe('backup and restore drill', () => {
  const state = tempStateDir('ucmcp-drill-');
  const operator = tempStateDir('ucmcp-drill-operator-');
  const procs: ServerProc[] = [];
  after(async () => {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    state.cleanup();
    operator.cleanup();
  });

  it('back up, wipe, restore --replace on a terminal while the server runs, restart: everything is back', async () => {
    const port = await freePort();
    const base = `https://127.0.0.1:${port}`;
    seedServerKeys(state.dir);
    // .env is part of the state: the restarted server must get it back from the backup.
    writeFileSync(
      join(state.dir, '.env'),
      [
        'AUTH_CLIENTS=alice:admin:cucm+imp+cuc,bob:auditor:cucm',
        'AUTH_BCRYPT_COST=4',
        'SERVER_HOST=127.0.0.1',
        `SERVER_PORT=${port}`,
        'LOGGING_CONSOLE_ENABLED=0',
        'INTEGRITY_MODE=warn',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    // The operator keeps the private key away from the server (here: a copy outside the state).
    const keyCopy = join(operator.dir, 'rsa_private.pem');
    copyFileSync(join(state.dir, 'secrets', 'rsa_private.pem'), keyCopy);

    // 1. Use the server: a credential in the vault, a report through MCP, an OAuth token and a revoked one.
    const k: TestKernel = await startTestKernel({
      stateDir: state.dir,
      seedKeys: false,
      env: { SERVER_PORT: String(port), BACKUP_ENABLED: '0' },
    });
    let valid: string;
    let revoked: string;
    try {
      await k.kernel.runtime.vault.forClient('alice').store('cucm', 'axl', AXL_HOST, CREDENTIAL);
      const mcp = await connectMcp(k, startupToken(state.dir, 'alice'));
      const w = await mcp.call('common_write_report', { name: 'drill.md', content: REPORT, mode: 'create' });
      assert.equal(w.isError, undefined, JSON.stringify(w));
      await mcp.close();
      const issue = async (): Promise<string> => {
        const res = await postForm(
          k,
          '/token',
          { grant_type: 'client_credentials' },
          { authorization: basicAuth('alice', clientFiles(state.dir, 'alice').secret) },
        );
        assert.equal(res.status, 200);
        return ((await res.json()) as { access_token: string }).access_token;
      };
      valid = await issue();
      revoked = await issue();
      assert.equal((await postForm(k, '/revoke', { token: revoked }, bearer(revoked))).status, 200);
    } finally {
      await k.stop();
    }

    // 2. Run the server (a real process) and let the watchdog back up at its start.
    const first = await startServer(state.dir);
    procs.push(first);
    const backups = join(state.dir, 'backups');
    const backupFile = await until('the backup at start', () =>
      existsSync(backups)
        ? readdirSync(backups).find(
            (f) => f.endsWith('.tar.gz.enc') && existsSync(join(backups, `${f}.sha512`)),
          )
        : undefined,
    );
    const atBackup = treeHash(state.dir, (rel) => !compared(rel));
    const auditAtBackup = readFileSync(join(state.dir, 'logs', 'audit.log'), 'utf8');
    assert.ok(
      atBackup.has('clients/alice/vault/credentials.json') && atBackup.has('secrets/token_blacklist.json'),
    );
    assert.ok([...atBackup.keys()].some((p) => p.startsWith('reports/') && p.endsWith('drill.md')));

    // 3. Wipe the state: everything but backups/ (the server keeps running on nothing).
    for (const entry of readdirSync(state.dir)) {
      if (entry !== 'backups') rmSync(join(state.dir, entry), { recursive: true, force: true });
    }
    assert.deepEqual(readdirSync(state.dir), ['backups']);

    // 4. Restore in place: the utility finds the running server (no pid file left: by its process),
    //    asks on the terminal, gets "y", sends SIGTERM, waits, and puts the backup in place.
    const restore = await restoreOnTerminal(
      ['--file', join(state.dir, 'backups', backupFile), '--key', keyCopy, '--replace'],
      { ...process.env, STATE_DIR: state.dir, ENV_FILE: '' },
      'y',
    );
    assert.equal(restore.code, 0, restore.out);
    assert.match(restore.out, /The server is running \(pid \d+\)/);
    assert.match(restore.out, /The server \(pid \d+\) will be stopped first\. \[y\/N\]/);
    assert.match(restore.out, /The server has stopped\./);
    assert.match(restore.out, /Restored backup/);
    assert.ok(!restore.out.includes(CREDENTIAL.password));
    assert.equal(await first.exited, 0, 'the server shut down cleanly on SIGTERM');

    assert.deepEqual(
      treeHash(state.dir, (rel) => !compared(rel)),
      atBackup,
      'restored files are byte for byte the backup',
    );
    const audit = readFileSync(join(state.dir, 'logs', 'audit.log'), 'utf8');
    // The backup holds the audit log as it was while the archive was written: up to its own record.
    const upToBackup = auditAtBackup.slice(
      0,
      auditAtBackup.indexOf('{"timestamp"', auditAtBackup.lastIndexOf('STARTUP_COMPLETE')),
    );
    assert.ok(
      upToBackup.includes('STARTUP_COMPLETE') && audit.startsWith(upToBackup),
      'the audit trail up to the backup is back',
    );
    assert.match(audit.slice(upToBackup.length), /"status":"BACKUP_RESTORED"/);

    // 5. Restart on the restored state, and compare by content what a client sees.
    const second = await startServer(state.dir);
    procs.push(second);
    const certPem = readFileSync(join(state.dir, 'secrets', 'tls_cert.pem'), 'utf8');
    const fetch = pinnedFetch(certPem);
    try {
      const status = async (token: string): Promise<{ status: number; body: Record<string, unknown> }> => {
        const res = await fetch(`${base}/status`, { headers: bearer(token) });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const ok = await status(valid);
      assert.equal(ok.status, 200, 'a token issued before the backup is still valid (same key, same issuer)');
      assert.equal((ok.body.clients as { active: number }).active, 2);
      // The restored backup is the last one, unless this start's own backup (one runs at every start)
      // has finished already: then that one is, and the audit log says this start made it.
      const last = (ok.body.backup as { last: { filename: string } }).last.filename;
      if (last !== backupFile) {
        const records = readFileSync(join(state.dir, 'logs', 'audit.log'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { status?: string; file?: string });
        const restoredAt = records.findIndex((r) => r.status === 'BACKUP_RESTORED');
        assert.ok(
          restoredAt >= 0 &&
            records.slice(restoredAt).some((r) => r.status === 'BACKUP_CREATED' && r.file === last),
          `last backup ${last} is neither the restored one nor made by this start`,
        );
      }
      const rev = await status(revoked);
      assert.equal(rev.status, 401);
      assert.equal(rev.body.error, 'AUTH_REVOKED', 'the revocation list is restored');
      assert.equal((await status(startupToken(state.dir, 'bob'))).status, 200, 'new startup tokens work');
      const cc = await fetch(`${base}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basicAuth('alice', clientFiles(state.dir, 'alice').secret),
        },
        body: 'grant_type=client_credentials',
      });
      assert.equal(cc.status, 200, 'the client secret (bcrypt hash) is restored');

      const mcp = await connectMcp(
        { url: base, fetch } as unknown as TestKernel,
        startupToken(state.dir, 'alice'),
      );
      const read = await mcp.call('common_read_report', { name: 'drill.md' });
      await mcp.close();
      assert.equal(read.isError, undefined, JSON.stringify(read));
      assert.equal(read.structuredContent?.content, REPORT, 'the report reads back as written');
    } finally {
      await fetch.close();
    }
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);

    // Credentials decrypt to what was stored (the vault master secret and the sealed records are back).
    const quiet = bunyan.createLogger({ name: 'drill', streams: [] });
    const paths = statePaths(state.dir);
    const audit2 = new AuditLog({ path: join(operator.dir, 'audit.log'), maxBytes: 1_000_000, maxFiles: 1 });
    const vault = Vault.open(paths, audit2, quiet);
    assert.deepEqual(await vault.forClient('alice').get('cucm', 'axl', AXL_HOST), CREDENTIAL);
    await audit2.close();
  });
});
