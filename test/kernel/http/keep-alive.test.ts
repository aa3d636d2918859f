// An idle kept-alive connection outlives the client's own idle timer. With Node's 5 s default, a client
// (undici, as MCP SDKs use) that sends its next POST just as the server closes the idle connection gets
// ECONNRESET for a request it cannot safely repeat; under load that happened within a test run.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';

describe('HTTP keep-alive', () => {
  const kernels: TestKernel[] = [];
  after(async () => {
    for (const k of kernels) await k.stop();
  });

  async function hint(env: Record<string, string>): Promise<string | null> {
    const k = await startTestKernel({ env });
    kernels.push(k);
    const r = await k.fetch(`${k.url}/health`);
    await r.arrayBuffer();
    return r.headers.get('keep-alive');
  }

  it('keeps an idle connection 65 s by default and says so to the client', async () => {
    assert.equal(await hint({}), 'timeout=65');
  });

  it('follows HTTP_KEEP_ALIVE_TIMEOUT_MS', async () => {
    assert.equal(await hint({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '7000' }), 'timeout=7');
  });
});
