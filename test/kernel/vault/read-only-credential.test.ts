// A credential stored `read_only` (issue 23 point 6): the attribute is sealed with the login, listed in
// clear, audited, cannot be edited in the file, and a call that opens such a credential may only read:
// every request of the call that is not classed `read` (unclassified included) is refused before it
// is sent, with READ_ONLY_CREDENTIAL, and listed on the call's outcome record.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { CredentialError, ReadOnlyCredentialError } from '../../../kernel/errors/index.ts';
import { CallNodeRequests } from '../../../kernel/mcp/call-node-requests.ts';
import { runWithNodeRequests } from '../../../kernel/sdk/node-requests.ts';
import type { NodeRequest } from '../../../kernel/sdk/types.ts';
import { vaultFixture } from './vault-fixture.ts';

const LOGIN = { username: 'auditor', password: 'Read-Only-Pw-9c1e' };
const AXL = 'cucm/axl/cucm1.lab';

function axl(operation: string, change_class?: NodeRequest['change_class']): NodeRequest {
  return { service: 'axl', operation, address: 'cucm1.lab:8443', ...(change_class ? { change_class } : {}) };
}

describe('read-only credentials in the vault', () => {
  const fx = vaultFixture();
  const v = fx.vault.forClient('alpha');
  after(() => fx.cleanup());

  it('stores, lists and audits the attribute; an update without it makes the credential writable', async () => {
    const stored = await v.store('cucm', 'axl', 'cucm1.lab', { ...LOGIN, read_only: true });
    assert.equal(stored.read_only, true);
    await v.store('cucm', 'os', 'cucm1.lab', LOGIN);
    assert.deepEqual(
      (await v.list('cucm')).map((e) => [e.kind, e.read_only]),
      [
        ['axl', true],
        ['os', false],
      ],
    );
    assert.equal((await v.get('cucm', 'axl', 'cucm1.lab')).read_only, true);
    const file = fx.credentialsFile('alpha');
    assert.equal((file.records[AXL] as { readOnly?: boolean }).readOnly, true);
    const audited = fx.auditRecords().filter((r) => r.event === 'CREDENTIAL' && r.operation === 'store');
    assert.deepEqual(
      audited.map((r) => [r.kind, r.read_only]),
      [
        ['axl', true],
        ['os', false],
      ],
    );
    await v.update('cucm', 'os', 'cucm1.lab', { ...LOGIN, read_only: true });
    await v.update('cucm', 'os', 'cucm1.lab', LOGIN);
    assert.equal((await v.list('cucm')).find((e) => e.kind === 'os')?.read_only, false);
  });

  it('refuses a record whose clear copy of the attribute was edited (read-only made to look writable)', async () => {
    const path = fx.credentialsPath('alpha');
    const original = readFileSync(path, 'utf8');
    const doc = JSON.parse(original) as { records: Record<string, { readOnly?: boolean }> };
    delete doc.records[AXL]?.readOnly;
    writeFileSync(path, JSON.stringify(doc));
    try {
      const reopened = fx.reopen().forClient('alpha');
      await assert.rejects(reopened.get('cucm', 'axl', 'cucm1.lab'), (err: unknown) => {
        assert.ok(err instanceof CredentialError);
        assert.match(err.message, /read_only attribute was changed/);
        return true;
      });
    } finally {
      writeFileSync(path, original);
    }
  });

  it('a call that opens a read-only credential may send reads only, and says what it refused', async () => {
    const call = new CallNodeRequests('axl', async () => undefined);
    await runWithNodeRequests(call, async () => {
      // Before the credential is opened nothing is restricted (another node's writable login).
      await call.request(axl('addPhone', 'change'));
      await v.get('cucm', 'axl', 'cucm1.lab');
      await call.request(axl('getPhone', 'read'));
      for (const [op, cls] of [
        ['updatePhone', 'change'],
        ['removePhone', 'destructive'],
        ['somethingUnclassified', undefined],
      ] as const)
        // Thrown at once, not as a rejection: a plugin that does not await request() still sends nothing.
        assert.throws(
          () => call.request(axl(op, cls)),
          (err: unknown) => {
            assert.ok(err instanceof ReadOnlyCredentialError);
            assert.equal(err.code, 'READ_ONLY_CREDENTIAL');
            assert.match(err.message, new RegExp(`${op} .*read-only: nothing was sent`));
            assert.ok(!err.message.includes(LOGIN.password));
            return true;
          },
        );
    });
    const fields = call.auditFields() as { denied_requests: { operation: string; reason?: string }[] };
    assert.deepEqual(
      fields.denied_requests.map((d) => [d.operation, d.reason]),
      [
        ['updatePhone', 'read_only_credential'],
        ['removePhone', 'read_only_credential'],
        ['somethingUnclassified', 'read_only_credential'],
      ],
    );
  });

  it('a writable credential restricts nothing', async () => {
    const call = new CallNodeRequests('ssh', async () => undefined);
    await runWithNodeRequests(call, async () => {
      await v.get('cucm', 'os', 'cucm1.lab');
      await call.request({
        service: 'ssh',
        operation: 'utils service restart Cisco Tftp',
        address: 'cucm1.lab:22',
      });
    });
    assert.equal((call.auditFields() as { denied_requests?: unknown }).denied_requests, undefined);
  });
});
