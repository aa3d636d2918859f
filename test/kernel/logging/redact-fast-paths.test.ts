// The shortcuts that spare clean records a full redaction pass must never spare a secret: text that
// one scan finds clean is returned as is, a key's class is remembered, the audit writer's own
// timestamp is not re-walked, a request's AUTH_OK is held back to share a write. Each is checked here
// with secrets in every place a record can carry them, nested arguments included.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AuditLog } from '../../../kernel/audit/audit-log.ts';
import { REDACTED, redact, scrubText } from '../../../kernel/logging/redact.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

/** A fresh secret-looking value, so a leak cannot pass for a fixed string someone else wrote. */
const canary = (): string => `Cn${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}`;

/** Every kind of secret-shaped text scrubText knows, with `s` as the secret. */
const shapes: ((s: string) => string)[] = [
  (s) => `password=${s}`,
  (s) => `PassPhrase : ${s}`,
  (s) => `pwd:${s}`,
  (s) => `client_secret = '${s}'`,
  (s) => `api_key="${s}"`,
  (s) => `Token: ${s}`,
  (s) => `Authorization: Bearer ${s}`,
  (s) => `Basic ${s}`,
  (s) => `eyJ${s}.${s}x.${s}y`,
  (s) => `https://admin:${s}@cucm-pub/axl`,
  (s) => `admin:${s}@10.0.0.1`,
];

/** Clean-looking filler around the secret: words, digits, dots, slashes, no separator of its own. */
const filler = (): string =>
  Array.from({ length: Math.floor(Math.random() * 4) }, () => randomBytes(3).toString('hex')).join(' ');

describe('redaction fast paths', () => {
  it('scrubText: every secret shape is still scrubbed, whatever surrounds it', () => {
    for (let i = 0; i < 500; i++) {
      const s = canary();
      const shape = shapes[i % shapes.length] as (s: string) => string;
      const text = `${filler()} ${shape(s)} ${filler()}`.trim();
      assert.ok(!scrubText(text).includes(s), `${text} -> ${scrubText(text)}`);
    }
  });

  it('scrubText: clean text comes back unchanged (the fast path)', () => {
    for (const clean of ['infra_health', '127.0.0.1', 'STARTED', 'listPhone', 'cucm-pub.example.com']) {
      assert.equal(scrubText(clean), clean);
    }
  });

  it('redact: secrets nested deep in arguments, under secret keys and inside text, on every walk', () => {
    // Twice: the second walk finds its keys' classes remembered from the first.
    for (let round = 0; round < 2; round++) {
      const [a, b, c, d] = [canary(), canary(), canary(), canary()];
      const record = {
        event: 'ACTIONS',
        tool_name: 'cucm_axl_call',
        operation: 'addPhone',
        host: `axladmin:${a}@cucm-pub`,
        args: { phone: { name: 'SEP001', lines: [{ note: `password=${b}`, deep: { token: c } }] } },
        detail: `sent with Bearer ${d}`,
      };
      const out = JSON.stringify(redact(record));
      for (const s of [a, b, c, d]) assert.ok(!out.includes(s), `round ${round}: ${out}`);
      assert.ok(out.includes(`"token":"${REDACTED}"`));
      assert.ok(out.includes('"name":"SEP001"'), 'clean values are kept');
    }
  });

  it('redact: nothing nested deeper than the walk goes out unexamined', () => {
    const s = canary();
    let deep: Record<string, unknown> = { password: s, note: `token=${s}` };
    for (let i = 0; i < 12; i++) deep = { level: i, inner: deep };
    const out = JSON.stringify(redact({ args: deep }));
    assert.ok(!out.includes(s), out);
    assert.ok(out.includes('"level":11'), 'the levels within reach are kept');
  });

  it('redact: a secret key is recognised even once the remembered classes are full', () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 5000; i++) many[`field_${i}`] = 'x';
    redact(many);
    const s = canary();
    const out = redact({ args: { never_seen_before_password: s, nested: { apiKey: s } } });
    assert.ok(!JSON.stringify(out).includes(s), JSON.stringify(out));
  });

  describe('the audit writer', () => {
    const state = tempStateDir();
    const log = new AuditLog({ path: join(state.dir, 'audit.log'), maxBytes: 1 << 20, maxFiles: 2 });
    after(async () => {
      await log.close();
      state.cleanup();
    });
    const onDisk = (): string => readFileSync(log.path, 'utf8');

    it('redacts every field but its own timestamp, nested arguments included', () => {
      const [a, b, c] = [canary(), canary(), canary()];
      const rec = log.write({
        event: 'ACTIONS',
        status: 'STARTED',
        client: `ada password=${a}`,
        args: { list: [{ secret: b }, { text: `api_key=${c}` }] },
      });
      for (const s of [a, b, c]) assert.ok(!onDisk().includes(s), onDisk());
      assert.ok(!Number.isNaN(Date.parse(rec.timestamp)));
    });

    it('redacts a held record and the record it goes out with', async () => {
      const [a, b] = [canary(), canary()];
      await log.holding({ event: 'AUTH', status: 'AUTH_OK', client: 'ada', note: `token=${a}` }, async () => {
        await Promise.resolve();
        log.write({ event: 'ACTIONS', status: 'STARTED', detail: { deeper: { password: b } } });
      });
      const text = onDisk();
      for (const s of [a, b]) assert.ok(!text.includes(s), text);
      const lines = text.trim().split('\n').slice(-2);
      assert.deepEqual(
        lines.map((l) => (JSON.parse(l) as { status: string }).status),
        ['AUTH_OK', 'STARTED'],
      );
    });

    it('writes a held record that no other record followed, redacted, when its request ends', async () => {
      const a = canary();
      const before = onDisk().length;
      await log.holding({ event: 'AUTH', status: 'AUTH_OK', client: 'ada', secret: a }, async () => {
        await Promise.resolve();
      });
      const added = onDisk().slice(before);
      assert.match(added, /"status":"AUTH_OK"/);
      assert.ok(!added.includes(a), added);
    });
  });
});
