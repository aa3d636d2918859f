// TRUSTED audit records say what happened: a refused fingerprint decision (wrong or malformed
// fingerprint, host never seen) is REFUSED with what was requested and no `action`; a decision that was
// taken (the *_os_trust_fingerprint tools, store_integration_credentials --ssh-fingerprint) carries its
// action. Through the real server and the real CLI command.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { command as storeIntegration } from '../../../kernel/cli/commands/store-integration-credentials.ts';
import { readAudit, startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { fakeIo } from '../cli/fake-io.ts';

const FP_A = 'SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU';
const FP_B = 'SHA256:fUO1TmmQ1Vd8VjVhRkpc4Yc0Fc0xvOa3Tj5r2Ih2a3U';

const trusted = (records: Record<string, unknown>[]) => records.filter((r) => r.event === 'TRUSTED');

describe('TRUSTED records of refused decisions, through the tools', () => {
  let k: TestKernel;
  let c: ConnectedClient;
  before(async () => {
    k = await startTestKernel({
      license: { products: ['cucm', 'imp', 'cuc'] },
      env: { AUTH_CLIENTS: 'adm:admin:cucm+imp+cuc', AUTH_BCRYPT_COST: '4' },
    });
    c = await connectMcp(k, startupToken(k.stateDir, 'adm'));
  });
  after(async () => {
    await c.close();
    await k.stop();
  });

  it('a decision on a host never seen, or a malformed fingerprint, is REFUSED without an action', async () => {
    for (const [tool, args] of [
      ['cucm_os_trust_fingerprint', { host: 'cucm-pub', fingerprint: FP_A, action: 'trust' }],
      ['imp_os_trust_fingerprint', { host: 'imp-pub', fingerprint: FP_A, action: 'reject' }],
      ['cuc_os_trust_fingerprint', { host: 'cuc-pub', fingerprint: 'MD5:aa:bb', action: 'trust' }],
    ] as const) {
      const r = await c.call(tool, args);
      assert.equal(r.structuredContent?.error, 'SSHError', `${tool}: ${JSON.stringify(r.structuredContent)}`);
    }
    const records = trusted(k.auditRecords());
    assert.deepEqual(
      records.map((r) => [r.product, r.status, r.requested, r.reason, 'action' in r]),
      [
        ['cucm', 'REFUSED', 'trust', 'unknown_host', false],
        ['imp', 'REFUSED', 'reject', 'unknown_host', false],
        ['cuc', 'REFUSED', 'trust', 'invalid', false],
      ],
    );
  });
});

describe('TRUSTED records of store_integration_credentials --ssh-fingerprint', () => {
  const state = tempStateDir('ucmcp-trust-cli-');
  after(() => state.cleanup());

  it('a pin is a decision: OK with action trusted; a changed key pinned again is one more', async () => {
    const run = async (fingerprint: string): Promise<void> => {
      const io = fakeIo({ env: { UC_INTEGRATION_PASSWORD: 'Os-pw-1!x' }, cwd: state.dir });
      const values = {
        product: 'cucm',
        kind: 'os',
        host: 'cucm-pub.example.com',
        username: 'osadmin',
        'state-dir': state.dir,
        'ssh-fingerprint': fingerprint,
        yes: true,
      };
      assert.equal(await storeIntegration.run({ values, positionals: [] }, io), 0, io.stderr);
    };
    await run(FP_A);
    await run(FP_B);
    await run(FP_B);
    const records = trusted(readAudit(state.dir));
    assert.deepEqual(
      records.map((r) => [r.status, r.action, r.fingerprint, 'requested' in r]),
      [
        ['OK', 'trusted', FP_A, false],
        ['OK', 'trusted', FP_B, false],
      ],
      'the third run found the key already pinned: nothing decided, nothing recorded',
    );
  });
});
