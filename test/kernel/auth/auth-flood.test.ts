// Parallel guessing used to outrun the IP blacklist: 40 wrong client secrets sent at once were all
// checked (threshold 10), and a flood of /token requests queued bcrypt on the thread pool everyone
// shares. A failure is now reserved before the check runs and secret checks are bounded in total and
// per address; what does not fit is answered 429 with Retry-After. Every request here is sent in
// parallel while the real bcrypt comparisons are held open by the test, so "in flight" does not depend
// on the machine's speed; the assertions are on counts of comparisons, never on timing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from 'undici';
import { spyBcryptCompare, type BcryptSpy } from '../../helpers/bcrypt-spy.ts';
import { pinnedFetch } from '../../helpers/https-client.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { authRecords, authorizeUrl, basicAuth, clientFiles, postForm } from '../../helpers/oauth.ts';

const REDIRECT = 'http://127.0.0.1/callback';

const guess = (i: number): string => `guess-${i}`;
const wrongSecret = (k: TestKernel, i: number): Promise<Response> =>
  postForm(
    k,
    '/token',
    { grant_type: 'client_credentials' },
    { authorization: basicAuth('noc-agent', guess(i)) },
  );

const until = async (done: () => boolean): Promise<void> => {
  const deadline = Date.now() + 30_000;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
};

/**
 * Requests sent at once while the comparisons are held: waits until `early` are answered (the
 * refusals; the held checks cannot answer), runs `then` (which must release the hold), then collects all.
 */
async function burst<T>(pending: Promise<T>[], early: number, then: () => unknown): Promise<T[]> {
  let answered = 0;
  for (const p of pending)
    void p.then(
      () => answered++,
      () => answered++,
    );
  await until(() => answered >= early);
  const soFar = answered;
  await then();
  assert.equal(soFar, early, `${soFar} answered while the first checks were still running`);
  return Promise.all(pending);
}

async function assertRefused(res: Response): Promise<void> {
  assert.equal(res.status, 429);
  const retry = Number(res.headers.get('retry-after'));
  assert.ok(Number.isInteger(retry) && retry >= 1, `Retry-After ${res.headers.get('retry-after')}`);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  const body = (await res.json()) as { error: string; error_description: string };
  assert.equal(body.error, 'AUTH_BLOCKED');
  assert.ok(body.error_description.length > 0);
}

describe('secret checks under a flood', () => {
  let spy: BcryptSpy;
  before(() => {
    spy = spyBcryptCompare((presented) => (presented.startsWith('guess-') ? 'flood' : 'legit'));
  });
  after(() => spy.restore());

  describe('40 wrong secrets at once from one address (threshold 10)', () => {
    let k: TestKernel;
    before(async () => {
      k = await startTestKernel({
        env: {
          AUTH_CLIENTS: 'noc-agent:operator:cucm',
          AUTH_BCRYPT_COST: '4',
          AUTH_BLACKLIST_THRESHOLD: '10',
          AUTH_BLACKLIST_WINDOW_SECONDS: '300',
          AUTH_BLACKLIST_DURATION_SECONDS: '300',
          // Room for all 40 at once: here the threshold alone must hold them back.
          AUTH_MAX_CONCURRENT_VERIFICATIONS: '64',
          AUTH_MAX_CONCURRENT_VERIFICATIONS_PER_IP: '64',
        },
      });
    });
    after(async () => {
      await k.stop();
    });

    it('checks 10, answers the other 30 with 429 and Retry-After, and lists the address once', async () => {
      spy.reset();
      const release = spy.hold();
      const answers = await burst(
        Array.from({ length: 40 }, (_, i) => wrongSecret(k, i)),
        30,
        release,
      );
      assert.equal(spy.of('flood').calls, 10, 'secrets checked');
      assert.equal(answers.filter((r) => r.status === 401).length, 10);
      const checked = authRecords(k, 'AUTH_FAILED').filter((r) => r.reason === 'bad_client_secret');
      assert.equal(checked.length, 10, 'one AUTH_FAILED record per check');
      for (const res of answers.filter((r) => r.status !== 401)) await assertRefused(res);
      assert.equal(authRecords(k, 'IP_BLACKLISTED').length, 1);
      const refusals = authRecords(k, 'AUTH_BLOCKED');
      assert.equal(refusals.filter((r) => r.reason === 'failure_threshold').length, 30);

      // Listed: even the right secret is not checked now.
      const secret = clientFiles(k.stateDir, 'noc-agent').secret;
      const calls = spy.all.calls;
      const right = await postForm(
        k,
        '/token',
        { grant_type: 'client_credentials' },
        { authorization: basicAuth('noc-agent', secret) },
      );
      await assertRefused(right);
      assert.equal(spy.all.calls, calls);
    });
  });

  describe('a flood from one address against the bounds (2 per address, 3 in total)', () => {
    let k: TestKernel;
    let secret: string;
    before(async () => {
      k = await startTestKernel({
        env: {
          AUTH_CLIENTS: `noc-agent:operator:cucm:${REDIRECT},other:operator:cucm`,
          AUTH_BCRYPT_COST: '4',
          AUTH_BLACKLIST_THRESHOLD: '1000',
          AUTH_MAX_CONCURRENT_VERIFICATIONS: '3',
          AUTH_MAX_CONCURRENT_VERIFICATIONS_PER_IP: '2',
        },
      });
      secret = clientFiles(k.stateDir, 'other').secret;
    });
    after(async () => {
      await k.stop();
    });

    it('runs 2 of its checks at once, refuses the rest, and a client from another address is served', async () => {
      spy.reset();
      const flood = spy.of('flood');
      const other = pinnedFetch(k.certPem, { localAddress: '127.0.0.2' });
      try {
        const release = spy.hold();
        let served: Response | undefined;
        let alongside = 0;
        const answers = await burst(
          Array.from({ length: 30 }, (_, i) => wrongSecret(k, i)),
          28,
          async () => {
            try {
              // 28 refused while 2 checks of the flooding address run: the third slot is the other's.
              const asked = other(`${k.url}/token`, {
                method: 'POST',
                headers: {
                  'content-type': 'application/x-www-form-urlencoded',
                  authorization: basicAuth('other', secret),
                },
                body: 'grant_type=client_credentials',
              });
              await until(() => spy.of('legit').calls > 0);
              alongside = spy.all.running;
              release();
              served = await asked;
            } finally {
              release();
            }
          },
        );
        assert.equal(alongside, 3, 'the other client is checked alongside the flood');
        assert.equal(served?.status, 200, await served?.clone().text());
        assert.equal(flood.calls, 2);
        assert.equal(flood.maxRunning, 2, 'checks of one address at once');
        assert.equal(spy.all.maxRunning, 3, 'checks at once');
        const refused = answers.filter((r) => r.status === 429);
        assert.equal(refused.length, 28, 'the excess is refused, not queued');
        for (const res of refused) await assertRefused(res);
        assert.deepEqual(
          answers.filter((r) => r.status !== 429).map((r) => r.status),
          [401, 401],
        );
        const blocked = authRecords(k, 'AUTH_BLOCKED').filter((r) => r.reason === 'address_busy');
        assert.equal(blocked.length, 28);
        assert.ok(blocked.every((r) => r.ip === '127.0.0.1'));
      } finally {
        await other.close();
      }
    });

    it('the login form is bounded the same way: parallel wrong secrets get 429 and the form again', async () => {
      spy.reset();
      const flood = spy.of('flood');
      // One login page (CSRF token and browser cookie) per attempt, loaded one after the other.
      const forms: { csrf: string; cookie: string }[] = [];
      for (let i = 0; i < 12; i++) {
        const page = await k.fetch(authorizeUrl(k, { client_id: 'noc-agent', redirect_uri: REDIRECT }).url);
        const html = await page.text();
        forms.push({
          csrf: /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '',
          cookie: (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
        });
      }
      const release = spy.hold();
      const answers = await burst(
        forms.map((f, i) =>
          postForm(
            k,
            '/authorize',
            { csrf: f.csrf, decision: 'approve', client_id: 'noc-agent', client_secret: guess(i) },
            { cookie: f.cookie, origin: new URL(k.url).origin },
          ),
        ),
        10,
        release,
      );
      assert.equal(flood.calls, 2);
      assert.equal(flood.maxRunning, 2, 'login checks of one address at once');
      const refused = answers.filter((r) => r.status === 429);
      assert.equal(refused.length, 10);
      for (const res of refused) {
        assert.ok(Number(res.headers.get('retry-after')) >= 1);
        assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
        const html = await res.text();
        assert.match(html, /name="csrf"/, 'the form is shown again, with a fresh CSRF token');
        assert.match(html, /another authentication from this address is in progress/);
      }
      for (const res of answers.filter((r) => r.status !== 429)) assert.equal(res.status, 200);
    });
  });
});
