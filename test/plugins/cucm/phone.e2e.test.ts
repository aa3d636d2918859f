// cucm_phone_screenshot end to end through a real MCP client against the lab's phones (PNG and BMP
// models): MCP image content that decodes to the model's screen size, refusals and the audit record.
import assert from 'node:assert/strict';
import { actionOutcomes } from '../../helpers/kernel.ts';
import { after, before, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { labCredential, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

describe('cucm_phone_screenshot through MCP', () => {
  let s: ProductStack;
  before(async () => {
    s = await startProductStack();
  });
  after(async () => {
    await s.stop();
  });

  it('returns a PNG image of every lab phone, BMP models converted, for each profile', async () => {
    // A lab phone without web credentials stands for one whose web access is off.
    const phones = s.lab.info.nodes.filter((n) => n.product === 'phone' && n.credentials.phone);
    assert.ok(
      phones.some((p) => p.screenshotFormat === 'bmp') && phones.some((p) => p.screenshotFormat === 'png'),
    );
    for (const phone of phones)
      await s.ok('admin', 'cucm_phone_store_credentials', labCredential(s.lab, phone, 'phone'));
    const mark = s.mark();
    for (const phone of phones) {
      for (const role of ['admin', 'operator', 'auditor'] as const) {
        const r = await s.mcp[role].call('cucm_phone_screenshot', { host: phone.name });
        assert.equal(r.isError, undefined, `${role} ${phone.name}: ${JSON.stringify(r.structuredContent)}`);
        const image = r.content.find((c) => c.type === 'image');
        assert.equal(image?.mimeType, 'image/png');
        const png = PNG.sync.read(Buffer.from(image?.data ?? '', 'base64'));
        const meta = r.structuredContent as { width: number; height: number; source_format: string };
        assert.equal(png.width, meta.width);
        assert.equal(png.height, meta.height);
        assert.equal(meta.source_format, phone.screenshotFormat);
        assert.ok(png.width >= 300 && png.height >= 160, `${png.width}x${png.height}`);
      }
    }
    const actions = actionOutcomes(s.auditSince(mark)).filter((r) => r.tool_name === 'cucm_phone_screenshot');
    assert.equal(actions.length, phones.length * 3);
    assert.ok(actions.every((r) => r.result === 'ALLOWED' && phones.some((p) => p.name === r.host)));
  });

  it('a wrong password, missing credentials and a dead phone each fail with a clear code', async () => {
    const phone = s.lab.info.nodes.find((n) => n.product === 'phone');
    assert.ok(phone);
    await s.ok('admin', 'cucm_phone_store_credentials', {
      ...labCredential(s.lab, phone, 'phone'),
      host: 'wrong-pw-phone.example.com',
      password: 'not-the-password',
    });
    const wrong = await s.fails('admin', 'cucm_phone_screenshot', { host: 'wrong-pw-phone.example.com' });
    assert.equal(wrong.error, 'CredentialError');
    assert.ok(!wrong.message.includes('not-the-password'));
    const none = await s.fails('admin', 'cucm_phone_screenshot', { host: 'never-stored.example.com' });
    assert.equal(none.error, 'CredentialError');
    await s.ok('admin', 'cucm_phone_store_credentials', {
      ...labCredential(s.lab, phone, 'phone'),
      host: 'dead-phone.example.com',
      address: '127.0.0.1:1',
    });
    const dead = await s.fails('admin', 'cucm_phone_screenshot', {
      host: 'dead-phone.example.com',
      timeout_s: 2,
    });
    assert.equal(dead.error, 'ConnectivityError');
  });

  it('the phone credential tools are refused by profile like the others', async () => {
    const phone = s.lab.info.nodes.find((n) => n.product === 'phone');
    assert.ok(phone);
    const args = { ...labCredential(s.lab, phone, 'phone'), host: 'p-refusal.example.com' };
    assert.equal(
      (await s.fails('auditor', 'cucm_phone_store_credentials', args)).error,
      'ProfilePermissionError',
    );
    await s.ok('operator', 'cucm_phone_store_credentials', args);
    await s.ok('operator', 'cucm_phone_update_credentials', { ...args, scheme: 'https' });
    assert.equal(
      (await s.fails('operator', 'cucm_phone_delete_credentials', { host: args.host })).error,
      'ProfilePermissionError',
    );
    const httpsNow = await s.fails('operator', 'cucm_phone_screenshot', { host: args.host, timeout_s: 2 });
    assert.equal(
      httpsNow.error,
      'ConnectivityError',
      'https to a plain-HTTP phone fails as a TLS/connection error',
    );
    assert.match(httpsNow.message, /does not seem to serve HTTPS/);
  });
});
