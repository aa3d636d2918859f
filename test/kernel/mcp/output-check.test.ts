// The kernel's check of each structured result against the tool's published schema: a result off its
// schema, or structured content from a tool without one, is flagged in app.log (once per tool), and the
// SDK client refuses the off-schema result itself, as real clients do.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { outputMismatch, publishedOutputSchema } from '../../../kernel/plugins/output-schema.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'contract-plugins');

describe('published output schemas', () => {
  it('admit the declared result and the error envelope, and nothing else', () => {
    const schema = publishedOutputSchema({ count: z.number(), note: z.string().optional() });
    assert.equal(schema.type, 'object');
    assert.equal(outputMismatch(schema, { count: 1 }), undefined);
    assert.equal(outputMismatch(schema, { count: 1, note: 'x' }), undefined);
    assert.equal(outputMismatch(schema, { error: 'NOT_FOUND', message: 'no', retry_after_s: 3 }), undefined);
    assert.ok(outputMismatch(schema, { count: 'one' }));
    assert.ok(outputMismatch(schema, { count: 1, surprise: true }), 'an undeclared key');
    assert.ok(outputMismatch(schema, {}), 'a required key missing');
    // A loose object says so, and then admits more keys.
    const loose = publishedOutputSchema({ server: z.looseObject({ name: z.string() }) });
    assert.equal(outputMismatch(loose, { server: { name: 'x', extra: 1 } }), undefined);
  });
});

describe('the runner flags results off their contract', () => {
  let k: TestKernel;
  let c: ConnectedClient;

  before(async () => {
    k = await startTestKernel({
      env: { AUTH_CLIENTS: 'u:auditor:cucm', AUTH_BCRYPT_COST: '4' },
      extraPluginDirs: [FIXTURES],
    });
    c = await connectMcp(k, startupToken(k.stateDir, 'u'));
    await c.client.listTools(); // the v1 client now checks results against the listed schemas
  });

  after(async () => {
    await c?.close();
    await k?.stop();
  });

  const appLog = (): Record<string, unknown>[] =>
    readFileSync(join(k.stateDir, 'logs', 'app.log'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('output schema'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('a result off its schema: refused by the client, flagged once in app.log', async () => {
    assert.equal((await c.call('common_test_off_schema', { wrong: false })).structuredContent?.count, 3);
    assert.deepEqual(appLog(), []);
    for (let i = 0; i < 2; i++)
      await assert.rejects(
        c.call('common_test_off_schema', { wrong: true }),
        /does not match the tool's output schema/,
      );
    const flagged = appLog().filter((r) => r.tool === 'common_test_off_schema');
    assert.equal(flagged.length, 1, 'once per tool');
    assert.equal(flagged[0]?.level, 50);
    assert.equal(flagged[0]?.msg, 'a tool result does not match its output schema');
    assert.match(String(flagged[0]?.mismatch), /count/);
    assert.doesNotMatch(String(flagged[0]?.mismatch), /three/, 'paths and rules, never values');
  });

  it('structured content without a schema: a warning, once', async () => {
    for (let i = 0; i < 2; i++) assert.equal((await c.call('common_test_undeclared')).isError, undefined);
    const warned = appLog().filter((r) => r.tool === 'common_test_undeclared');
    assert.equal(warned.length, 1);
    assert.equal(warned[0]?.level, 40);
  });
});
