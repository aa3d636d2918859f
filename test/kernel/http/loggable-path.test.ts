import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loggablePath } from '../../../kernel/http/loggable-path.ts';

describe('paths as logs show them', () => {
  it('hide a one-time link token and keep every ordinary path as it is', () => {
    const token = `v1.${'A'.repeat(120)}.${'b'.repeat(43)}`;
    assert.equal(loggablePath(`/reports/download/${token}`), '/reports/download/<token>');
    assert.equal(loggablePath(`/credentials/enter/${'x'.repeat(43)}`), '/credentials/enter/<token>');
    for (const p of ['/mcp', '/', '/.well-known/oauth-protected-resource/mcp', '/reports/download/short'])
      assert.equal(loggablePath(p), p);
  });
});
