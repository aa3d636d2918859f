import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import { startTestKernel } from '../../helpers/kernel.ts';
import { cachedRsaKeyPair } from '../../helpers/keys.ts';
import {
  authRecords,
  basicAuth,
  clientFiles,
  codeFlow,
  freePort,
  getStatus,
  postForm,
} from '../../helpers/oauth.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const REDIRECT = 'http://127.0.0.1/callback';

describe('server key replaced between two starts', () => {
  const state = tempStateDir();
  after(() => state.cleanup());

  it('refuses every earlier token; the new .token files and the unchanged client secrets work', async () => {
    const env = {
      SERVER_PORT: String(await freePort()),
      AUTH_CLIENTS: `noc-agent:operator:cucm:${REDIRECT},auditor1:auditor:cucm`,
      AUTH_BCRYPT_COST: '4',
    };
    let k = await startTestKernel({ stateDir: state.dir, env });
    const oldKid = k.kernel.runtime.keys.kid;
    const secret = clientFiles(state.dir, 'noc-agent').secret;
    const startupTokens = ['noc-agent', 'auditor1'].map((n) => clientFiles(state.dir, n).token);
    const oauth = await codeFlow(k, { name: 'noc-agent', secret, redirectUri: REDIRECT });
    for (const t of [...startupTokens, oauth.access_token]) assert.equal((await getStatus(k, t)).status, 200);
    await k.stop();

    // What the key rotation utility does: a new pair in place of the old one.
    const second = cachedRsaKeyPair('second');
    writeFileSync(join(state.dir, 'secrets/rsa_private.pem'), second.privatePem, { mode: 0o600 });
    writeFileSync(join(state.dir, 'secrets/rsa_public.pem'), second.publicPem, { mode: 0o600 });
    k = await startTestKernel({ stateDir: state.dir, seedKeys: false, env });
    try {
      assert.notEqual(k.kernel.runtime.keys.kid, oldKid);
      for (const t of [...startupTokens, oauth.access_token]) {
        const r = await getStatus(k, t);
        assert.equal(r.status, 401);
        assert.equal(r.body.error, 'AUTH_FAILED');
        assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'unknown_kid');
      }
      const refresh = await postForm(
        k,
        '/token',
        { grant_type: 'refresh_token', refresh_token: oauth.refresh_token },
        { authorization: basicAuth('noc-agent', secret) },
      );
      assert.equal(refresh.status, 400, 'refresh tokens from before the rotation are refused too');
      assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'refresh_rotated_key');

      for (const name of ['noc-agent', 'auditor1']) {
        const fresh = clientFiles(state.dir, name).token;
        assert.equal(decodeProtectedHeader(fresh).kid, k.kernel.runtime.keys.kid);
        assert.equal((await getStatus(k, fresh)).status, 200);
      }
      assert.equal(clientFiles(state.dir, 'noc-agent').secret, secret, 'client secrets are not affected');
      const cc = await postForm(
        k,
        '/token',
        { grant_type: 'client_credentials' },
        { authorization: basicAuth('noc-agent', secret) },
      );
      assert.equal(cc.status, 200);
    } finally {
      await k.stop();
    }
  });
});
