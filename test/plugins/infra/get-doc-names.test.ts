// infra_get_doc by name: a name several docs share is refused with every candidate URI (never one of
// them picked silently), each candidate reads by its URI, and a unique name still reads directly. Every
// name collision is derived from the live catalogue, not from a list in the test.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';

interface Doc {
  uri: string;
  name: string;
  template: boolean;
}

describe('infra_get_doc with a name', () => {
  let k: TestKernel;
  let c: ConnectedClient;
  let docs: Doc[];
  before(async () => {
    k = await startTestKernel({
      license: { products: ['cucm', 'imp', 'cuc'] },
      env: { AUTH_CLIENTS: 'amy:auditor:cucm+imp+cuc', AUTH_BCRYPT_COST: '4' },
    });
    c = await connectMcp(k, startupToken(k.stateDir, 'amy'));
    docs = ((await c.call('infra_list_docs')).structuredContent as { docs: Doc[] }).docs;
  });
  after(async () => {
    await c.close();
    await k.stop();
  });

  it('refuses every shared name with BAD_REQUEST listing all its URIs, each of which reads', async () => {
    const byName = new Map<string, string[]>();
    for (const d of docs.filter((x) => !x.template))
      byName.set(d.name, [...(byName.get(d.name) ?? []), d.uri]);
    const shared = [...byName].filter(([, uris]) => uris.length > 1);
    assert.ok(shared.length > 0, 'the three products share CLI-guide topic names (overview, ...)');
    for (const [name, uris] of shared) {
      const r = await c.call('infra_get_doc', { name });
      assert.equal(r.structuredContent?.error, 'BAD_REQUEST', name);
      const message = String(r.structuredContent?.message);
      assert.match(message, new RegExp(`"${name}" is ambiguous: ${uris.length} docs`));
      for (const uri of uris) {
        assert.ok(message.includes(uri), `${name}: candidate ${uri} listed`);
        const read = await c.call('infra_get_doc', { name: uri });
        assert.equal(read.isError, undefined, uri);
      }
    }
  });

  it('reads a name only one doc has, and answers NOT_FOUND for a name none has', async () => {
    const counts = new Map<string, number>();
    for (const d of docs.filter((x) => !x.template)) counts.set(d.name, (counts.get(d.name) ?? 0) + 1);
    const unique = docs.find((d) => !d.template && counts.get(d.name) === 1);
    assert.ok(unique, 'some doc name is unique');
    const r = await c.call('infra_get_doc', { name: unique.name });
    assert.equal(r.isError, undefined);
    assert.equal(r.structuredContent?.uri, unique.uri);
    const none = await c.call('infra_get_doc', { name: 'no-such-doc' });
    assert.equal(none.structuredContent?.error, 'NOT_FOUND');
  });
});
