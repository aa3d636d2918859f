import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CredentialError } from '../../../kernel/errors/index.ts';
import { masterSecretPath } from '../../../kernel/vault/index.ts';
import { vaultFixture, type CredentialsFileJson } from './vault-fixture.ts';

const CANARY = 'Tamper-Canary-Pw-41d7';
const AXL = 'cucm/axl/cucm1.lab';
const OS = 'cucm/os/cucm1.lab';

/** Replaces a file the way an attacker with write access (or a restore) would: a new inode. */
function replaceFile(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.swap`, content);
  renameSync(`${path}.swap`, path);
}

function rejectsWith(pattern: RegExp) {
  return (err: unknown) => {
    assert.ok(err instanceof CredentialError, String(err));
    assert.equal(err.status, 400);
    assert.match(err.message, pattern);
    assert.ok(!err.message.includes(CANARY), 'no secret in the message');
    return true;
  };
}

describe('credential vault: tampering and isolation', () => {
  const fx = vaultFixture();
  const alpha = fx.vault.forClient('alpha');
  const bravo = fx.vault.forClient('bravo');
  let original: string;

  /** Runs `fn` on a modified copy of alpha's file, then puts the original back. */
  async function withAlphaFile(
    edit: (f: CredentialsFileJson) => void,
    fn: () => Promise<void>,
  ): Promise<void> {
    const f = JSON.parse(original) as CredentialsFileJson;
    edit(f);
    replaceFile(fx.credentialsPath('alpha'), JSON.stringify(f));
    try {
      await fn();
    } finally {
      replaceFile(fx.credentialsPath('alpha'), original);
    }
  }

  before(async () => {
    await alpha.store('cucm', 'axl', 'cucm1.lab', { username: 'axl-admin', password: `${CANARY}-axl` });
    await alpha.store('cucm', 'os', 'cucm1.lab', { username: 'os-admin', password: `${CANARY}-os` });
    await bravo.store('cucm', 'axl', 'cucm9.lab', { username: 'b', password: 'bravo-pw' });
    original = readFileSync(fx.credentialsPath('alpha'), 'utf8');
  });
  after(() => fx.cleanup());

  it('detects a flipped bit in a sealed record, in its box or its nonce', async () => {
    for (const field of ['box', 'nonce'] as const) {
      for (const at of [0, 10, -1]) {
        await withAlphaFile(
          (f) => {
            const rec = f.records[AXL];
            assert.ok(rec);
            const bytes = Buffer.from(rec[field], 'base64');
            const i = at < 0 ? bytes.length + at : at;
            bytes[i] = (bytes[i] as number) ^ 0x01;
            rec[field] = bytes.toString('base64');
          },
          async () => {
            await assert.rejects(
              alpha.get('cucm', 'axl', 'cucm1.lab'),
              rejectsWith(/cannot be opened: it does not decrypt/),
            );
            assert.equal(
              (await alpha.get('cucm', 'os', 'cucm1.lab')).password,
              `${CANARY}-os`,
              'others still open',
            );
          },
        );
      }
    }
    assert.equal(
      (await alpha.get('cucm', 'axl', 'cucm1.lab')).password,
      `${CANARY}-axl`,
      'restored file reads',
    );
  });

  it('detects two records whose ciphertexts were swapped', async () => {
    await withAlphaFile(
      (f) => {
        const [a, b] = [f.records[AXL], f.records[OS]];
        assert.ok(a && b);
        f.records[AXL] = b;
        f.records[OS] = a;
      },
      async () => {
        await assert.rejects(
          alpha.get('cucm', 'axl', 'cucm1.lab'),
          rejectsWith(/sealed for another client, product, kind or host/),
        );
        await assert.rejects(alpha.get('cucm', 'os', 'cucm1.lab'), rejectsWith(/sealed for another/));
      },
    );
  });

  it('detects an edited date beside a record', async () => {
    await withAlphaFile(
      (f) => {
        (f.records[AXL] as { updatedAt: string }).updatedAt = '2001-01-01T00:00:00.000Z';
      },
      () => assert.rejects(alpha.get('cucm', 'axl', 'cucm1.lab'), rejectsWith(/sealed for another/)),
    );
  });

  it('refuses a file whose KDF parameters were weakened, or that does not parse', async () => {
    await withAlphaFile(
      (f) => {
        f.kdf.iterations = 1000;
      },
      async () => {
        await assert.rejects(
          alpha.get('cucm', 'axl', 'cucm1.lab'),
          rejectsWith(/unexpected content at kdf\.iterations/),
        );
        await assert.rejects(
          alpha.store('cucm', 'phone', 'cucm1.lab', { username: 'u', password: 'p' }),
          rejectsWith(/cannot be used/),
        );
      },
    );
    replaceFile(fx.credentialsPath('alpha'), '{"format":');
    await assert.rejects(
      alpha.list(),
      rejectsWith(/credential store of client alpha cannot be used: it does not parse/),
    );
    replaceFile(fx.credentialsPath('alpha'), original);
    const failed = fx.auditRecords().filter((r) => r.event === 'CREDENTIAL' && r.reason === 'unreadable');
    assert.equal(failed.length, 1, 'the refused store is audited');
  });

  it('keeps clients apart: bravo cannot read, list, update or delete alpha’s credentials', async () => {
    const missing = rejectsWith(
      /no (axl|os) credentials are stored for cucm host cucm1\.lab \(client bravo\)/,
    );
    await assert.rejects(bravo.get('cucm', 'axl', 'cucm1.lab'), missing);
    await assert.rejects(bravo.update('cucm', 'os', 'cucm1.lab', { username: 'x', password: 'y' }), missing);
    await assert.rejects(bravo.delete('cucm', 'axl', 'cucm1.lab'), missing);
    assert.deepEqual(
      (await bravo.list()).map((e) => e.host),
      ['cucm9.lab'],
    );
    // Bravo's own record for the same host is bravo's, and alpha's is untouched.
    await bravo.store('cucm', 'axl', 'cucm1.lab', { username: 'b', password: 'bravo-own' });
    assert.equal((await alpha.get('cucm', 'axl', 'cucm1.lab')).password, `${CANARY}-axl`);
    assert.equal((await bravo.get('cucm', 'axl', 'cucm1.lab')).password, 'bravo-own');
    await bravo.delete('cucm', 'axl', 'cucm1.lab');
    assert.equal((await alpha.list()).length, 2);
  });

  it('does not open alpha’s record copied into bravo’s file', async () => {
    const bravoPath = fx.credentialsPath('bravo');
    const bravoOriginal = readFileSync(bravoPath, 'utf8');
    const b = JSON.parse(bravoOriginal) as CredentialsFileJson;
    b.records[AXL] = JSON.parse(original).records[AXL];
    replaceFile(bravoPath, JSON.stringify(b));
    await assert.rejects(bravo.get('cucm', 'axl', 'cucm1.lab'), rejectsWith(/does not decrypt/));
    replaceFile(bravoPath, bravoOriginal);
  });

  it('does not open alpha’s whole file copied over bravo’s, even with the client name edited', async () => {
    const bravoPath = fx.credentialsPath('bravo');
    const bravoOriginal = readFileSync(bravoPath, 'utf8');
    copyFileSync(fx.credentialsPath('alpha'), `${bravoPath}.swap`);
    renameSync(`${bravoPath}.swap`, bravoPath);
    await assert.rejects(bravo.get('cucm', 'axl', 'cucm1.lab'), rejectsWith(/belongs to another client/));
    await assert.rejects(bravo.list(), rejectsWith(/belongs to another client/));

    const relabelled = JSON.parse(original) as CredentialsFileJson;
    relabelled.client = 'bravo';
    replaceFile(bravoPath, JSON.stringify(relabelled));
    // Same master secret and alpha's salt give alpha's key, but the records are bound to alpha.
    await assert.rejects(bravo.get('cucm', 'axl', 'cucm1.lab'), rejectsWith(/sealed for another client/));
    replaceFile(bravoPath, bravoOriginal);
    assert.equal((await bravo.get('cucm', 'axl', 'cucm9.lab')).password, 'bravo-pw');
  });

  it('refuses to read or write under a different vault master secret', async () => {
    const keyPath = masterSecretPath(fx.paths);
    const realKey = readFileSync(keyPath);
    replaceFile(keyPath, randomBytes(32));
    try {
      const other = fx.reopen().forClient('alpha');
      const wrongKey = rejectsWith(/sealed under another vault master secret/);
      await assert.rejects(other.get('cucm', 'axl', 'cucm1.lab'), wrongKey);
      await assert.rejects(
        other.store('cucm', 'phone', 'cucm1.lab', { username: 'u', password: 'p' }),
        wrongKey,
      );
      await assert.rejects(
        other.update('cucm', 'axl', 'cucm1.lab', { username: 'u', password: 'p' }),
        wrongKey,
      );
      assert.equal(
        readFileSync(fx.credentialsPath('alpha'), 'utf8'),
        original,
        'nothing sealed under the wrong key',
      );
      const audited = fx.auditRecords().filter((r) => r.reason === 'key_mismatch');
      assert.equal(audited.length, 2);
    } finally {
      replaceFile(keyPath, realKey);
    }
    assert.equal(
      (await fx.reopen().forClient('alpha').get('cucm', 'os', 'cucm1.lab')).password,
      `${CANARY}-os`,
    );
  });

  it('logs failed openings without any secret', () => {
    const failures = fx.log.lines.filter((l) => l.includes('credential did not open'));
    assert.ok(failures.length >= 5);
    assert.ok(!fx.log.lines.some((l) => l.includes(CANARY)));
  });
});
