import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { command as store } from '../../../kernel/cli/commands/store-integration-credentials.ts';
import { runTestsCommand, type TestRunnerDeps } from '../../../kernel/cli/commands/run-tests.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { fakeIo } from './fake-io.ts';

/** A project root with a test runner and one real-node suite, and a child process that is only recorded. */
function fakeRunner(
  root: string,
  codes: number[] = [],
): TestRunnerDeps & { runs: { paths: string[]; env: NodeJS.ProcessEnv }[] } {
  const runs: { paths: string[]; env: NodeJS.ProcessEnv }[] = [];
  return {
    root,
    runs,
    async runSuite(paths, env) {
      runs.push({ paths, env });
      return codes.shift() ?? 0;
    },
  };
}

describe('run_tests', () => {
  let project: { dir: string; cleanup: () => void };
  let state: { dir: string; cleanup: () => void };
  before(async () => {
    project = tempStateDir('ucmcp-runtests-root-');
    mkdirSync(join(project.dir, 'test', 'real-nodes'), { recursive: true });
    writeFileSync(join(project.dir, 'test', 'run.ts'), '');
    writeFileSync(join(project.dir, 'test', 'real-nodes', 'nodes.test.ts'), '');
    state = tempStateDir('ucmcp-runtests-state-');
  });
  after(() => {
    project.cleanup();
    state.cleanup();
  });

  const run = (
    deps: TestRunnerDeps,
    values: Record<string, string | boolean>,
    io = fakeIo(),
    positionals: string[] = [],
  ) => runTestsCommand(deps).run({ values: { 'state-dir': state.dir, ...values }, positionals }, io);

  it('without a terminal: runs the suite only, and says how to run the real-node tests', async () => {
    const deps = fakeRunner(project.dir);
    const io = fakeIo({ interactive: false, answers: ['y'] });
    assert.equal(await run(deps, {}, io, ['test/kernel']), 0);
    assert.deepEqual(
      deps.runs.map((r) => r.paths),
      [['test/kernel']],
    );
    assert.deepEqual(io.asked, []);
    assert.match(io.stdout, /skipped \(no terminal; pass --integration to run them\)/);
  });

  it('a failing suite exits 1 and offers nothing more', async () => {
    const deps = fakeRunner(project.dir, [1]);
    const io = fakeIo({ interactive: true, answers: ['y'] });
    assert.equal(await run(deps, {}, io), 1);
    assert.equal(deps.runs.length, 1);
    assert.deepEqual(io.asked, []);
    assert.match(io.stderr, /the test suite failed \(exit 1\)/);
  });

  it('--integration with no stored credentials fails with the way to store them, creating no vault', async () => {
    const deps = fakeRunner(project.dir);
    const io = fakeIo();
    assert.equal(await run(deps, { integration: true, 'skip-unit': true }, io), 1);
    assert.equal(deps.runs.length, 0);
    assert.match(io.stderr, /client integration-test has no credentials .*store_integration_credentials/);
    assert.ok(!existsSync(join(state.dir, 'secrets', 'vault_master.key')), 'no master secret created');
  });

  it('on a terminal asks, then runs the real-node suite with the vault location; a no skips it', async () => {
    const storeIo = fakeIo({ env: { UC_INTEGRATION_PASSWORD: 'pw-for-real-node-tests' } });
    const stored = await store.run(
      {
        values: {
          product: 'cuc',
          kind: 'cupi',
          host: 'cuc1.example.com',
          username: 'u',
          'state-dir': state.dir,
        },
        positionals: [],
      },
      storeIo,
    );
    assert.equal(stored, 0, storeIo.stderr);

    const deps = fakeRunner(project.dir);
    const yes = fakeIo({ interactive: true, answers: ['y'] });
    assert.equal(await run(deps, {}, yes), 0, yes.stderr);
    assert.match(
      yes.asked[0] ?? '',
      /Run the integration tests against real nodes, with the credentials of client integration-test/,
    );
    assert.deepEqual(
      deps.runs.map((r) => r.paths),
      [[], [join('test', 'real-nodes')]],
    );
    assert.equal(deps.runs[1]?.env.UC_INTEGRATION_STATE_DIR, state.dir);
    assert.equal(deps.runs[1]?.env.UC_INTEGRATION_CLIENT, 'integration-test');
    assert.match(yes.stdout, /1 credential\(s\) of client integration-test/);

    const noDeps = fakeRunner(project.dir);
    const no = fakeIo({ interactive: true, answers: ['n'] });
    assert.equal(await run(noDeps, {}, no), 0);
    assert.equal(noDeps.runs.length, 1);
    assert.match(no.stdout, /integration tests against real nodes: skipped/);

    const failing = fakeRunner(project.dir, [0, 1]);
    assert.equal(await run(failing, { integration: true }, fakeIo()), 1, 'a failing real-node run fails');
  });

  it('usage: --integration with --no-integration is exit 2; --no-integration never asks', async () => {
    assert.equal(await run(fakeRunner(project.dir), { integration: true, 'no-integration': true }), 2);
    const io = fakeIo({ interactive: true });
    assert.equal(await run(fakeRunner(project.dir), { 'no-integration': true }, io), 0);
    assert.deepEqual(io.asked, []);
    const noSuite = fakeIo();
    assert.equal(await run(fakeRunner(state.dir), {}, noSuite), 1);
    assert.match(noSuite.stderr, /no test suite/);
  });
});
