import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DownloadLinks } from '../../../kernel/files/download-links.ts';
import { RateLimitedError } from '../../../kernel/errors/index.ts';

const GRANT = { scheme: 'report', client: 'alice', name: 'a.pdf' };

describe('one-time download links', () => {
  it('a link is consumed by its first use; peeking does not use it', () => {
    let now = 1_000_000;
    const links = new DownloadLinks(() => now, 300_000);
    const { token, expiresAt } = links.issue(GRANT);
    assert.equal(expiresAt, now + 300_000);
    assert.deepEqual(links.peek(token), { ...GRANT, expiresAt });
    assert.deepEqual(links.consume(token), { ...GRANT, expiresAt });
    assert.equal(links.consume(token), 'used');
    assert.equal(links.peek(token), 'used');
    // Two links for the same file are two links.
    const other = links.issue(GRANT).token;
    assert.notEqual(other, token);
    now += 1;
    assert.deepEqual(links.consume(other), { ...GRANT, expiresAt: now - 1 + 300_000 });
  });

  it('expires at its time, and a late first use is refused', () => {
    let now = 5_000;
    const links = new DownloadLinks(() => now, 1000);
    const { token } = links.issue(GRANT);
    now += 999;
    assert.equal(typeof links.peek(token), 'object');
    now += 1;
    assert.equal(links.consume(token), 'expired');
  });

  it('refuses a link another process (another key) signed, an altered one and garbage', () => {
    const links = new DownloadLinks(() => 0, 60_000);
    const elsewhere = new DownloadLinks(() => 0, 60_000).issue(GRANT).token;
    assert.equal(links.consume(elsewhere), 'forged');
    const [v, payload, mac] = links.issue(GRANT).token.split('.') as [string, string, string];
    const toBob = Buffer.from(
      Buffer.from(payload, 'base64url').toString().replace('"alice"', '"bob"'),
    ).toString('base64url');
    assert.equal(links.consume(`${v}.${toBob}.${mac}`), 'forged');
    assert.equal(links.consume(`${v}.${payload}.${mac.slice(1)}`), 'forged');
    for (const junk of [
      '',
      '.',
      '..',
      'v1..',
      `v0.${payload}.${mac}`,
      `${v}.${payload}.${mac}.x`,
      'é',
      'v1.a b.c',
    ]) {
      assert.equal(links.consume(junk), 'malformed', JSON.stringify(junk));
    }
    assert.equal(links.consume(`${v}.${'A'.repeat(700)}.${mac}`), 'malformed');
  });

  it('remembers used links only until they expire, and at most a bounded number at once', () => {
    let now = 0;
    const links = new DownloadLinks(() => now, 1000, 3);
    for (let i = 0; i < 3; i++) assert.equal(typeof links.consume(links.issue(GRANT).token), 'object');
    const fourth = links.issue(GRANT).token;
    assert.throws(() => links.consume(fourth), RateLimitedError);
    // Once the used ones would have expired anyway, they are forgotten and room is made.
    now += 1000;
    assert.equal(typeof links.consume(links.issue(GRANT).token), 'object');
  });
});
