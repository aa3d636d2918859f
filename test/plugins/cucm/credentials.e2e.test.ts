// The CUCM credential and host-key tools end to end: a real MCP client, the real kernel and vault, the lab.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { labCredential, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

const KINDS = [
  { kind: 'axl', infix: '' },
  { kind: 'os', infix: 'os_' },
  { kind: 'phone', infix: 'phone_' },
] as const;

describe('cucm credential tools through MCP', () => {
  let s: ProductStack;
  before(async () => {
    s = await startProductStack();
  });
  after(async () => {
    await s.stop();
  });

  for (const { kind, infix } of KINDS) {
    it(`${kind}: store, list, update, delete, each audited with host, the secret never echoed`, async () => {
      const node = kind === 'phone' ? s.node('phone') : s.node('cucm');
      const args = { ...labCredential(s.lab, node, kind), host: `${kind}-e2e.example.com` };
      const mark = s.mark();
      const stored = await s.ok('operator', `cucm_${infix}store_credentials`, args);
      assert.equal(stored.kind, kind);
      assert.equal(stored.host, `${kind}-e2e.example.com`);
      const dup = await s.fails('operator', `cucm_${infix}store_credentials`, args);
      assert.equal(dup.error, 'CredentialError');
      assert.match(dup.message, /already exist/);

      const list = await s.ok('operator', 'cucm_list_credentials');
      const entries = list.credentials as { kind: string; host: string }[];
      assert.ok(entries.some((e) => e.kind === kind && e.host === `${kind}-e2e.example.com`));

      const updated = await s.ok('operator', `cucm_${infix}update_credentials`, {
        ...args,
        password: 'N3w-Secret-Value!',
      });
      assert.equal(updated.updated, true);
      // Deletion is admin-only; the operator is refused and nothing is deleted.
      const refused = await s.fails('operator', `cucm_${infix}delete_credentials`, { host: args.host });
      assert.equal(refused.error, 'ProfilePermissionError');
      // The admin's vault is its own: it has nothing stored under this host.
      const notMine = await s.fails('admin', `cucm_${infix}delete_credentials`, { host: args.host });
      assert.equal(notMine.error, 'CredentialError');

      const records = s.auditSince(mark);
      const actions = records.filter((r) => r.event === 'ACTIONS');
      assert.ok(
        actions.some(
          (r) =>
            r.tool_name === `cucm_${infix}store_credentials` &&
            r.host === args.host &&
            r.result === 'ALLOWED' &&
            r.client === 'operator1',
        ),
      );
      assert.ok(
        actions.some(
          (r) =>
            r.tool_name === `cucm_${infix}delete_credentials` &&
            r.result === 'DENIED' &&
            r.host === args.host,
        ),
      );
      const creds = records.filter((r) => r.event === 'CREDENTIAL' && r.cluster === args.host);
      assert.deepEqual(
        creds.filter((r) => r.status === 'OK').map((r) => r.operation),
        ['store', 'update'],
      );
      const text = JSON.stringify(records) + readFileSync(join(s.k.stateDir, 'logs', 'app.log'), 'utf8');
      const password = String((args as Record<string, unknown>).password);
      assert.ok(!text.includes(password) && !text.includes('N3w-Secret-Value!'), 'no secret logged');
    });
  }

  it('the auditor can list but not store; the admin deletes its own', async () => {
    const cucm = s.node('cucm');
    const denied = await s.fails('auditor', 'cucm_store_credentials', labCredential(s.lab, cucm, 'axl'));
    assert.equal(denied.error, 'ProfilePermissionError');
    const mine = await s.ok('auditor', 'cucm_list_credentials');
    const kinds = (mine.credentials as { kind: string; host: string }[])
      .filter((e) => e.host === cucm.name)
      .map((e) => e.kind)
      .sort();
    assert.deepEqual(kinds, ['axl', 'os'], 'the auditor sees its own seeded credentials');
    assert.ok(!JSON.stringify(mine).includes(cucm.credentials.axl?.password ?? '\0'));

    const args = { ...labCredential(s.lab, cucm, 'axl'), host: 'gone.example.com' };
    await s.ok('admin', 'cucm_store_credentials', args);
    const mark = s.mark();
    await s.ok('admin', 'cucm_delete_credentials', { host: 'gone.example.com' });
    const again = await s.fails('admin', 'cucm_delete_credentials', { host: 'gone.example.com' });
    assert.equal(again.error, 'CredentialError');
    assert.ok(
      s
        .auditSince(mark)
        .some((r) => r.event === 'CREDENTIAL' && r.operation === 'delete' && r.status === 'OK'),
    );
  });

  it('refuses malformed input before anything is stored', async () => {
    const base = labCredential(s.lab, s.node('cucm'), 'axl');
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, host: 'admin:pw@cucm' }, 'CredentialError'],
      [{ ...base, host: 'cucm/../../etc' }, 'CredentialError'],
      [{ ...base, address: 'http://evil/' }, 'BAD_REQUEST'],
      [
        { ...base, ca_cert_pem: '-----BEGIN CERTIFICATE-----\nnot a cert\n-----END CERTIFICATE-----' },
        'BAD_REQUEST',
      ],
      [{ ...base, password: '' }, 'BAD_REQUEST'],
      [{ ...base, extra: 'field' }, 'BAD_REQUEST'],
    ];
    for (const [args, code] of cases) {
      const r = await s.fails('operator', 'cucm_store_credentials', args);
      assert.equal(r.error, code, `${JSON.stringify(args).slice(0, 80)}: ${r.message}`);
      assert.ok(!r.message.includes(String(base.password)));
    }
  });

  it('trusts a presented SSH host key (admin only), then commands run; a wrong fingerprint is refused', async () => {
    const cucm = s.node('cucm');
    await s.ok('admin', 'cucm_os_store_credentials', labCredential(s.lab, cucm, 'os'));
    const first = await s.fails('admin', 'cucm_os_run_command', { host: cucm.name, command: 'show myself' });
    assert.equal(first.error, 'SSHError');
    assert.ok(first.message.includes(String(cucm.sshHostKeyFingerprint)), first.message);

    const opDenied = await s.fails('operator', 'cucm_os_trust_fingerprint', {
      host: cucm.name,
      fingerprint: cucm.sshHostKeyFingerprint,
      action: 'trust',
    });
    assert.equal(opDenied.error, 'ProfilePermissionError');
    const wrong = await s.fails('admin', 'cucm_os_trust_fingerprint', {
      host: cucm.name,
      fingerprint: 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      action: 'trust',
    });
    assert.equal(wrong.error, 'SSHError');

    const mark = s.mark();
    const trusted = await s.ok('admin', 'cucm_os_trust_fingerprint', {
      host: cucm.name,
      fingerprint: cucm.sshHostKeyFingerprint,
      action: 'trust',
    });
    assert.equal(trusted.state, 'trusted');
    const rec = s.auditSince(mark);
    assert.ok(
      rec.some(
        (r) =>
          r.event === 'TRUSTED' && r.action === 'trusted' && r.fingerprint === cucm.sshHostKeyFingerprint,
      ),
    );
    assert.ok(
      rec.some(
        (r) => r.event === 'ACTIONS' && r.tool_name === 'cucm_os_trust_fingerprint' && r.host === cucm.name,
      ),
    );

    const ran = await s.ok('admin', 'cucm_os_run_command', { host: cucm.name, command: 'show myself' });
    assert.match(String(ran.output), /Machine Name/i);
    const listed = await s.ok('admin', 'cucm_list_credentials');
    const key = (listed.host_keys as { host: string; state: string }[]).find((h) => h.host === cucm.name);
    assert.equal(key?.state, 'trusted');
  });
});
