// The MCP conformance fixture is test-only: the product never publishes a test_* tool, the kernel
// refuses the fixture's module in the shipped plugins folder, and the fixture's tools pass the same
// gate as any other. Also what the fixture needs of the plugin contract (kernel 1.2), over real MCP.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bunyan from 'bunyan';
import { loadPlugins } from '../../kernel/plugins/loader.ts';
import { PluginRegistry, publishedDocs } from '../../kernel/plugins/registry.ts';
import { actionOutcomes, startTestKernel, type TestKernel } from '../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../helpers/mcp-client.ts';
import { tempStateDir } from '../helpers/state-dir.ts';
import {
  CONFORMANCE_CLIENT,
  FIXTURE_PLUGINS,
  startServerUnderTest,
  type ServerUnderTest,
} from './runner/server-under-test.ts';

describe('the product without the conformance fixture', () => {
  let k: TestKernel;
  before(async () => {
    k = await startTestKernel({ license: { products: ['cucm', 'imp', 'cuc'] } });
  });
  after(() => k.stop());

  it('publishes no test_* tool or prompt and no test:// document (default plugin folders, all products licensed)', () => {
    const { registry } = k.kernel.mcp;
    assert.ok(registry.tools.size > 20, 'the shipped plugins are loaded');
    assert.deepEqual(
      [...registry.tools.keys()].filter((n) => n.startsWith('test_')),
      [],
    );
    assert.deepEqual(
      [...registry.prompts.keys()].filter((n) => n.startsWith('test_')),
      [],
    );
    assert.deepEqual(
      registry.resources.flatMap(publishedDocs).filter((d) => d.uri.startsWith('test:')),
      [],
    );
    assert.deepEqual(
      [...registry.plugins.values()].filter((p) => p.def.module === 'test'),
      [],
    );
  });
});

describe('the conformance fixture bundle', () => {
  const state = tempStateDir();
  after(() => state.cleanup());
  const load = (pluginsDirs: string[], shippedDir: string) =>
    loadPlugins({
      pluginsDirs,
      shippedDir,
      registry: new PluginRegistry(),
      gate: () => ({ ok: true }),
      log: bunyan.createLogger({ name: 't', streams: [] }),
      services: () => ({}) as never,
    });

  it('is refused in the shipped plugins folder and loads from an extra folder beside it', async () => {
    const shipped = join(state.dir, 'plugins');
    mkdirSync(shipped);
    symlinkSync(join(FIXTURE_PLUGINS, 'conformance'), join(shipped, 'conformance'));
    const inShipped = await load([shipped], shipped);
    assert.deepEqual(inShipped.loaded, []);
    assert.match(inShipped.refused[0]?.reason ?? '', /module test is for test-only bundles/);

    const beside = await load([FIXTURE_PLUGINS], shipped);
    assert.deepEqual(beside.loaded, ['conformance']);
  });
});

describe('the fixture behind the kernel gate', () => {
  let s: ServerUnderTest;
  let suite: ConnectedClient;
  let auditor: ConnectedClient;
  before(async () => {
    s = await startServerUnderTest({ extraClients: ['auditor1:auditor:cucm'] });
    suite = await connectMcp(s.kernel, startupToken(s.kernel.stateDir, CONFORMANCE_CLIENT));
    auditor = await connectMcp(s.kernel, startupToken(s.kernel.stateDir, 'auditor1'));
  });
  after(async () => {
    await suite.close();
    await auditor.close();
    await s.stop();
  });

  it('a profile that does not allow test_* is refused and audited DENIED; the conformance profile is allowed', async () => {
    const denied = await auditor.call('test_simple_text');
    assert.equal(denied.isError, true);
    assert.equal(denied.structuredContent?.error, 'ProfilePermissionError');
    const allowed = await suite.call('test_simple_text');
    assert.deepEqual(allowed.content, [
      { type: 'text', text: 'This is a simple text response for testing.' },
    ]);
    const outcomes = actionOutcomes(s.kernel.auditRecords()).filter(
      (r) => r.tool_name === 'test_simple_text',
    );
    assert.deepEqual(
      outcomes.map((r) => [r.client, r.result]),
      [
        ['auditor1', 'DENIED'],
        [CONFORMANCE_CLIENT, 'ALLOWED'],
      ],
    );
  });

  it('kernel 1.2 carries audio blocks, prompt messages with images and documents (text for 1.1 callers), and mid-URI templates', async () => {
    const audio = await suite.call('test_audio_content');
    assert.equal(audio.content[0]?.type, 'audio');
    assert.equal(audio.content[0]?.mimeType, 'audio/wav');
    assert.equal(
      Buffer.from(audio.content[0]?.data ?? '', 'base64')
        .subarray(0, 4)
        .toString(),
      'RIFF',
    );

    // prompts/get (kernel getPrompt) carries the content; renderPrompt (kernel 1.1, infra_get_prompt) is
    // the same as text, so a bundle that reads m.content.text keeps working.
    const caller = { name: CONFORMANCE_CLIENT, profile: CONFORMANCE_CLIENT, products: [] };
    const { services } = s.kernel.kernel.mcp;
    const image = await services.getPrompt(caller, 'test_prompt_with_image', {});
    assert.deepEqual(
      image.messages.map((m) => m.content.type),
      ['image', 'text'],
    );
    const embedded = await services.getPrompt(caller, 'test_prompt_with_embedded_resource', {
      resourceUri: 'test://example',
    });
    assert.deepEqual(embedded.messages[0]?.content, {
      type: 'resource',
      resource: {
        uri: 'test://example',
        mimeType: 'text/plain',
        text: 'Embedded resource content for testing.',
      },
    });
    const asText = await services.renderPrompt(caller, 'test_prompt_with_image', {});
    assert.deepEqual(
      asText.messages.map((m) => m.content.text),
      ['[image image/png]', 'Please analyze the image above.'],
    );
    const embeddedText = await services.renderPrompt(caller, 'test_prompt_with_embedded_resource', {
      resourceUri: 'test://example',
    });
    assert.equal(embeddedText.messages[0]?.content.text, 'Embedded resource content for testing.');

    const doc = (await suite.client.readResource({ uri: 'test://template/123/data' })).contents[0];
    assert.ok(doc && 'text' in doc);
    assert.deepEqual(JSON.parse(doc.text), {
      id: '123',
      templateTest: true,
      data: 'Data for ID: 123',
    });
    await assert.rejects(suite.client.readResource({ uri: 'test://template/123/other' }), /NOT_FOUND/);
    await assert.rejects(suite.client.readResource({ uri: 'test://template/a/b/data' }), /NOT_FOUND/);
  });
});
