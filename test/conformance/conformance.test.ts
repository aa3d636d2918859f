// The MCP conformance suite (@modelcontextprotocol/conformance) against the product and its test-only
// fixture, through the runner operators and CI use (`npm run conformance`): every applicable server
// scenario at 2025-11-25 and 2026-07-28 and the authorization-server scenarios must pass. The suite
// needs Node 22; this skips, saying why, only when none can be had (not linux-x64, no registry).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../kernel/paths.ts';
import { node22 } from './runner/node22.ts';

describe('MCP conformance', () => {
  it(
    'every applicable scenario of the suite passes (npm run conformance)',
    { timeout: 900_000 },
    async (t) => {
      const node = node22();
      if ('skip' in node) {
        console.log(`conformance skipped: ${node.skip}`);
        t.skip(node.skip);
        return;
      }
      const { code, output } = await new Promise<{ code: number | null; output: string }>(
        (resolve, reject) => {
          const child = spawn(
            process.execPath,
            ['--import', 'tsx', join(PROJECT_ROOT, 'scripts', 'conformance.ts')],
            {
              cwd: PROJECT_ROOT,
              stdio: ['ignore', 'pipe', 'pipe'],
            },
          );
          let text = '';
          child.stdout.on('data', (c: Buffer) => (text += c.toString()));
          child.stderr.on('data', (c: Buffer) => (text += c.toString()));
          child.on('error', reject);
          child.on('close', (exit) => resolve({ code: exit, output: text }));
        },
      );
      console.log(output);
      assert.equal(code, 0, 'an applicable conformance scenario failed (table above)');
      assert.match(output, /\d+ passed, 0 failed, \d+ not applicable, 0 stale exclusion/);
    },
  );
});
