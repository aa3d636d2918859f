// A registered application is never an identity: the person signs in as a configured client, the
// tokens carry that client (and its profile) with the application beside it, and what was granted
// through an application is redeemed, refreshed and revoked through that application only. The operator
// removes an application while the server runs; everything granted through it stops at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { runNamed } from '../../../../kernel/cli/dispatch.ts';
import { startTestKernel, type TestKernel } from '../../../helpers/kernel.ts';
import { registerApp } from '../../../helpers/oauth-apps.ts';
import {
  authorizeUrl,
  authRecords,
  basicAuth,
  bearer,
  clientFiles,
  getStatus,
  postForm,
  submitLogin,
} from '../../../helpers/oauth.ts';
import { fakeIo } from '../../cli/fake-io.ts';

/** Registered as 127.0.0.1; asked for as Claude Code does, on localhost and a port of its own. */
const REGISTERED = 'http://127.0.0.1/callback';
const ASKED = 'http://localhost:5555/callback';

describe('an application is never an identity', () => {
  let k: TestKernel;
  let app1: string;
  let app2: string;
  const secret = (name: string) => clientFiles(k.stateDir, name).secret;

  /** The sign-in through `app` as `as` (name, secret); the code and verifier, or the failed page. */
  async function signIn(app: string, as: { client_id: string; client_secret: string }) {
    const { url, verifier } = authorizeUrl(k, { client_id: app, redirect_uri: ASKED });
    const login = await submitLogin(k, url, as);
    const code = login.location ? new URL(login.location).searchParams.get('code') : null;
    return { ...login, code, verifier };
  }
  const redeem = (code: string, verifier: string, extra: Record<string, string>, headers = {}) =>
    postForm(
      k,
      '/token',
      { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: ASKED, ...extra },
      headers,
    );

  before(async () => {
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: 'noc-agent:operator:cucm+imp+cuc,auditor1:auditor:cucm',
        AUTH_BCRYPT_COST: '4',
        AUTH_BLACKLIST_THRESHOLD: '1000',
      },
    });
    app1 = (await registerApp(k, { client_name: 'Host One', redirect_uris: [REGISTERED] })).body
      .client_id as string;
    app2 = (await registerApp(k, { client_name: 'Host Two', redirect_uris: [REGISTERED] })).body
      .client_id as string;
  });
  after(async () => {
    await k.stop();
  });

  it('the person must name a configured client and its secret; wrong ones are refused and audited', async () => {
    const wrong = await signIn(app1, { client_id: 'auditor1', client_secret: secret('noc-agent') });
    assert.equal(wrong.status, 200);
    assert.match(wrong.html, /The client name or secret is not correct\./);
    const unknown = await signIn(app1, { client_id: 'nobody', client_secret: secret('noc-agent') });
    assert.match(unknown.html, /The client name or secret is not correct\./);
    const failures = authRecords(k, 'AUTH_FAILED').filter((r) => r.reason === 'bad_client_credentials');
    assert.deepEqual(
      failures.map((r) => [r.client_id, r.azp, r.client_app]),
      [
        ['auditor1', app1, 'Host One'],
        [undefined, app1, 'Host One'],
      ],
      'the application is in every record; a name typed that is no client is not recorded',
    );
    const appOnly = await signIn(app1, { client_id: app1, client_secret: '' });
    assert.equal(appOnly.code, null, 'an application cannot sign in as itself');
  });

  it("a code is redeemed only by the application's client_id, and the tokens name the client chosen", async () => {
    const asAuditor = { client_id: 'auditor1', client_secret: secret('auditor1') };
    const a = await signIn(app1, asAuditor);
    assert.ok(a.code);
    assert.equal((await redeem(a.code, a.verifier, { client_id: app2 })).status, 400, 'another application');
    const b = await signIn(app1, asAuditor);
    const bySecret = await redeem(
      b.code as string,
      b.verifier,
      {},
      { authorization: basicAuth('auditor1', secret('auditor1')) },
    );
    assert.equal(bySecret.status, 400, 'the client itself, with its secret, is not the application');
    assert.equal(((await bySecret.json()) as { error: string }).error, 'invalid_grant');

    const c = await signIn(app1, asAuditor);
    const res = await redeem(c.code as string, c.verifier, { client_id: app1 });
    assert.equal(res.status, 200);
    const tokens = (await res.json()) as { access_token: string; refresh_token: string };
    const claims = decodeJwt(tokens.access_token);
    assert.deepEqual(
      [claims.sub, claims.client_id, claims.azp, claims.client_app],
      ['auditor1', 'auditor1', app1, 'Host One'],
    );
    const status = await getStatus(k, tokens.access_token);
    assert.equal(status.status, 200);
    assert.deepEqual(
      authRecords(k, 'AUTH_FAILED')
        .filter((r) => r.reason === 'code_client_mismatch')
        .map((r) => [r.azp, r.client]),
      [
        [app2, undefined],
        [undefined, 'auditor1'],
      ],
    );

    // No client_credentials for an application, whatever it tries.
    const cc = await postForm(k, '/token', { grant_type: 'client_credentials', client_id: app1 });
    assert.equal(cc.status, 400);
    assert.equal(((await cc.json()) as { error: string }).error, 'unauthorized_client');

    // Refresh: only through the application it was granted through.
    const refresh = (extra: Record<string, string>, headers = {}) =>
      postForm(
        k,
        '/token',
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, ...extra },
        headers,
      );
    assert.equal((await refresh({ client_id: app2 })).status, 400);
    assert.equal(
      (await refresh({}, { authorization: basicAuth('auditor1', secret('auditor1')) })).status,
      400,
    );
    const refreshed = await refresh({ client_id: app1 });
    assert.equal(refreshed.status, 200);
    const next = (await refreshed.json()) as { access_token: string; refresh_token: string };
    assert.equal(decodeJwt(next.access_token).azp, app1);
    assert.equal(decodeJwt(next.access_token).sub, 'auditor1');
    const issued = authRecords(k, 'TOKEN_ISSUED').at(-1);
    assert.deepEqual(
      [issued?.grant_type, issued?.client, issued?.azp, issued?.client_app],
      ['refresh_token', 'auditor1', app1, 'Host One'],
    );

    // Revocation through the application's token names the application.
    const revoked = await postForm(k, '/revoke', { token: next.refresh_token }, bearer(next.access_token));
    assert.equal(revoked.status, 200);
    const record = authRecords(k, 'TOKEN_REVOKED').at(-1);
    assert.deepEqual([record?.client, record?.azp, record?.kind], ['auditor1', app1, 'refresh']);
  });

  it("an application's token revokes only what was granted through it", async () => {
    const asAuditor = { client_id: 'auditor1', client_secret: secret('auditor1') };
    const tokenOf = async (app: string) => {
      const s = await signIn(app, asAuditor);
      return (await (await redeem(s.code as string, s.verifier, { client_id: app })).json()) as {
        access_token: string;
      };
    };
    const one = await tokenOf(app1);
    const two = await tokenOf(app2);
    await postForm(k, '/revoke', { token: two.access_token }, bearer(one.access_token));
    assert.equal(
      (await getStatus(k, two.access_token)).status,
      200,
      "another application's token is not revoked",
    );
    assert.equal(authRecords(k, 'TOKEN_REVOKE_REFUSED').at(-1)?.azp, app1);
  });

  it('removed by the operator while the server runs: sign-in, token, refresh and its tokens all stop', async () => {
    const s = await signIn(app1, { client_id: 'noc-agent', client_secret: secret('noc-agent') });
    const tokens = (await (await redeem(s.code as string, s.verifier, { client_id: app1 })).json()) as {
      access_token: string;
      refresh_token: string;
    };
    assert.equal((await getStatus(k, tokens.access_token)).status, 200);
    const pending = await signIn(app1, { client_id: 'noc-agent', client_secret: secret('noc-agent') });

    const io = fakeIo();
    assert.equal(await runNamed('oauth_apps', ['remove', app1, '--state-dir', k.stateDir], io), 0, io.stderr);
    assert.match(io.stdout, new RegExp(`Removed ${app1.replace('.', '\\.')} \\("Host One"\\)`));

    const status = await getStatus(k, tokens.access_token);
    assert.equal(status.status, 401);
    assert.equal(status.body.error, 'AUTH_REVOKED');
    const refresh = await postForm(k, '/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: app1,
    });
    assert.equal(refresh.status, 401);
    assert.equal(((await refresh.json()) as { error: string }).error, 'invalid_client');
    assert.equal((await redeem(pending.code as string, pending.verifier, { client_id: app1 })).status, 401);
    const page = await k.fetch(authorizeUrl(k, { client_id: app1, redirect_uri: ASKED }).url);
    assert.equal(page.status, 400);

    const removed = authRecords(k, 'APP_REMOVED');
    assert.deepEqual(
      removed.map((r) => [r.azp, r.client_app, r.by]),
      [[app1, 'Host One', 'operator']],
    );
    assert.equal(authRecords(k, 'AUTH_REVOKED').at(-1)?.reason, 'app_removed');

    // The other application is untouched.
    const list = fakeIo();
    assert.equal(await runNamed('oauth_apps', ['list', '--json', '--state-dir', k.stateDir], list), 0);
    assert.deepEqual(
      (JSON.parse(list.stdout) as { client_id: string }[]).map((a) => a.client_id),
      [app2],
    );
  });
});
