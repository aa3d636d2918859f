import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AuditLog } from '../../../kernel/audit/audit-log.ts';
import { AuditUnavailableError } from '../../../kernel/errors/index.ts';
import { Vault, type VaultAudit } from '../../../kernel/vault/index.ts';
import { vaultFixture } from './vault-fixture.ts';

const WRITER = join(import.meta.dirname, 'crash-writer.ts');

/** Runs the writer until it has acknowledged `writes` updates, then SIGKILLs it; returns the last acknowledged. */
function killMidWrite(stateDir: string, first: number, writes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, stateDir, String(first)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let acked = first - 1;
    let buffered = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const l of lines) if (/^\d+$/.test(l)) acked = Number(l);
      if (acked >= first + writes - 1) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`writer exited with ${code}: ${stderr}`));
    });
  });
}

describe('credential vault: audit first, atomic writes', () => {
  const fx = vaultFixture();
  after(() => fx.cleanup());

  let target: VaultAudit = fx.audit;
  const switchable: VaultAudit = { write: (e) => target.write(e) };
  const broken: VaultAudit = {
    write: () => {
      throw new AuditUnavailableError('the audit log cannot be written; the operation was refused');
    },
  };
  const vault = Vault.open(fx.paths, switchable, fx.log);
  const view = vault.forClient('audited');
  const secret = { username: 'admin', password: 'first-pw' };

  it('refuses a store whose audit record cannot be written, and persists nothing', async () => {
    target = broken;
    await assert.rejects(view.store('cucm', 'axl', 'cucm1.lab', secret), AuditUnavailableError);
    assert.equal(existsSync(fx.credentialsPath('audited')), false, 'no file was created');
    target = fx.audit;
    await view.store('cucm', 'axl', 'cucm1.lab', secret);
    assert.equal(vault.derivations, 1, 'the refused store did not waste a derivation');
  });

  it('refuses update and delete when the real audit log is closed, leaving the record as it was', async () => {
    const closed = new AuditLog({
      path: join(dirname(fx.paths.auditLog), 'closed.log'),
      maxBytes: 1e6,
      maxFiles: 1,
    });
    await closed.close();
    const before = readFileSync(fx.credentialsPath('audited'), 'utf8');
    target = closed;
    await assert.rejects(
      view.update('cucm', 'axl', 'cucm1.lab', { username: 'x', password: 'new-pw' }),
      AuditUnavailableError,
    );
    await assert.rejects(view.delete('cucm', 'axl', 'cucm1.lab'), AuditUnavailableError);
    await assert.rejects(
      view.delete('cucm', 'axl', 'not-there'),
      AuditUnavailableError,
      'failures need their record too',
    );
    target = fx.audit;
    assert.equal(readFileSync(fx.credentialsPath('audited'), 'utf8'), before);
    assert.deepEqual(await view.get('cucm', 'axl', 'cucm1.lab'), secret);
    const recs = fx.auditRecords().filter((r) => r.event === 'CREDENTIAL' && r.client === 'audited');
    assert.deepEqual(
      recs.map((r) => `${r.operation}:${r.status}`),
      ['store:OK'],
      'only the change that happened is in the audit log',
    );
  });

  it('leaves the previous record readable when a writer is killed mid-write, round after round', async () => {
    const crash = fx.vault.forClient('crash');
    await crash.store('cucm', 'os', 'cucm1.lab', { username: 'admin', password: 'pw-0' });
    await crash.store('cucm', 'axl', 'cucm1.lab', { username: 'admin', password: 'untouched' });
    let next = 1;
    for (let round = 0; round < 4; round++) {
      const acked = await killMidWrite(fx.dir, next, 5 + round * 7);
      const got = await crash.get('cucm', 'os', 'cucm1.lab');
      const n = Number(/^pw-(\d+)$/.exec(got.password)?.[1]);
      assert.ok(n >= acked && n <= acked + 1, `round ${round}: read pw-${n} after acknowledged pw-${acked}`);
      assert.equal((await crash.get('cucm', 'axl', 'cucm1.lab')).password, 'untouched');
      next = n + 1;
    }
  });

  it('ignores a stray temporary file left by a crash', async () => {
    const dir = dirname(fx.credentialsPath('crash'));
    writeFileSync(
      join(dir, '.credentials.json.4242.deadbeef0000.tmp'),
      '{"format":"uc-mcp-credential-vault","rec',
    );
    const temps = readdirSync(dir).filter((f) => f.endsWith('.tmp'));
    assert.ok(temps.length >= 1);
    assert.equal((await fx.vault.forClient('crash').get('cucm', 'axl', 'cucm1.lab')).password, 'untouched');
    assert.equal((await fx.vault.forClient('crash').list()).length, 2);
  });
});
