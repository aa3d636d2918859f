// The pending credential links in memory: bounded per client and overall, single use, expiring, bound to
// the client and tool that opened them, and waking a tool that waits for the submission.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CredentialLinks } from '../../../kernel/credentials-page/links.ts';
import type { CredentialPageRequest } from '../../../kernel/sdk/index.ts';

const request = (host: string, tool = 'cucm_store_credentials'): CredentialPageRequest => ({
  tool,
  product: 'cucm',
  kindLabel: 'AXL',
  host,
  operation: 'store',
  details: {},
  submit: () => Promise.resolve({}),
});

function links(o: { perClient?: number; total?: number; ttlMs?: number } = {}) {
  let now = 1_000_000;
  const l = new CredentialLinks(
    { ttlMs: o.ttlMs ?? 60_000, perClient: o.perClient ?? 2, total: o.total ?? 3, attempts: 2 },
    () => now,
    () => 'https://uc.example:8443/',
  );
  return { l, advance: (ms: number) => (now += ms) };
}

describe('credential links', () => {
  it('are bounded per client and overall, with a retry time; an expired one frees its place', () => {
    const { l, advance } = links();
    const a = l.forClient('alice', true);
    a.open(request('h1'));
    advance(1000);
    a.open(request('h2'));
    assert.throws(
      () => a.open(request('h3')),
      (e: { code: string; retryAfterSeconds: number }) => {
        assert.equal(e.code, 'RATE_LIMITED');
        assert.equal(e.retryAfterSeconds, 59);
        return true;
      },
    );
    l.forClient('bob', true).open(request('h1'));
    assert.throws(() => l.forClient('carol', true).open(request('h1')), /too many credential links/);
    advance(59_000);
    l.forClient('carol', true).open(request('h1'));
    assert.deepEqual(l.counts(), { pending: 3, done: 0 });
  });

  it('a link is unguessable, single use, and its state is visible to its own client and tool only', async () => {
    const { l } = links();
    const link = l.forClient('alice', true).open(request('h1'));
    assert.match(link.id, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(link.url, `https://uc.example:8443/credentials/enter/${link.id}`);
    const found = l.lookup(link.id);
    assert.ok(found.ok);
    assert.equal(l.checkCsrf(found.link, 'wrong'), false);
    assert.equal(l.checkCsrf(found.link, found.link.csrf), true);
    assert.equal(l.begin(found.link), true);
    assert.equal(l.begin(found.link), false, 'a parallel submission is refused');
    l.succeed(found.link, { host: 'h1' });
    assert.deepEqual(l.lookup(link.id), { ok: false, why: 'used' });
    assert.deepEqual(l.forClient('alice', true).state(link.id, 'cucm_store_credentials'), {
      state: 'submitted',
      result: { host: 'h1' },
    });
    assert.deepEqual(l.forClient('bob', true).state(link.id, 'cucm_store_credentials'), { state: 'gone' });
    assert.deepEqual(l.forClient('alice', true).state(link.id, 'imp_store_credentials'), { state: 'gone' });
  });

  it('a waiting tool wakes on the submission, on expiry and on its own timeout; a declined link is withdrawn', async () => {
    const { l, advance } = links({ ttlMs: 200 });
    const pages = l.forClient('alice', true);
    const link = pages.open(request('h1'));
    const waiting = pages.wait(link.id, 'cucm_store_credentials', 10_000, new AbortController().signal);
    const found = l.lookup(link.id);
    assert.ok(found.ok);
    l.begin(found.link);
    l.succeed(found.link, { host: 'h1' });
    assert.equal((await waiting).state, 'submitted');

    const second = pages.open(request('h2'));
    assert.equal(
      (await pages.wait(second.id, 'cucm_store_credentials', 10, new AbortController().signal)).state,
      'pending',
    );
    pages.cancel(second.id, 'cucm_store_credentials');
    assert.deepEqual(l.lookup(second.id), { ok: false, why: 'used' });
    assert.equal(pages.state(second.id, 'cucm_store_credentials').state, 'gone');

    const third = pages.open(request('h3'));
    advance(201);
    assert.deepEqual(l.lookup(third.id), { ok: false, why: 'expired' });
    assert.equal(pages.state(third.id, 'cucm_store_credentials').state, 'gone');
  });

  it('a link refused too often is used up', () => {
    const { l } = links();
    const link = l.forClient('alice', true).open(request('h1'));
    const found = l.lookup(link.id);
    assert.ok(found.ok);
    assert.equal(l.fail(found.link), true);
    assert.equal(l.fail(found.link), false);
    assert.deepEqual(l.lookup(link.id), { ok: false, why: 'used' });
  });
});
