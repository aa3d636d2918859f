// run_tests (test utility of the spec): the interactive test runner. Runs the test suite (unit tests and
// the integration tests against the lab's simulated nodes), then offers the integration tests against
// real managed nodes, which use the credentials store_integration_credentials put in the vault of the
// integration-test client. Without a terminal nobody can answer, so only --integration runs those.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, statePaths } from '../../paths.ts';
import { masterSecretPath } from '../../vault/index.ts';
import { EXIT, type CliCommand, type CliIo } from '../command.ts';
import { confirm } from '../confirm.ts';
import {
  ENV_CLIENT,
  ENV_STATE_DIR,
  integrationTarget,
  openClientVault,
  type IntegrationTarget,
} from '../integration-vault.ts';

/** The suites against real nodes; they skip themselves unless run_tests hands them a vault. */
export const REAL_NODE_TESTS = join('test', 'real-nodes');

export interface TestRunnerDeps {
  /** Runs `node --import tsx test/run.ts <paths>` in the project root; resolves with its exit code. */
  runSuite(paths: string[], env: NodeJS.ProcessEnv): Promise<number>;
  root: string;
}

export const processRunner: TestRunnerDeps = {
  root: PROJECT_ROOT,
  runSuite(paths, env) {
    const child = spawn(process.execPath, ['--import', 'tsx', join('test', 'run.ts'), ...paths], {
      cwd: PROJECT_ROOT,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    // Ctrl-C reaches the child through the terminal's process group; its exit code comes back here.
    return new Promise((resolve) => {
      child.on('error', () => resolve(EXIT.FAILED));
      child.on('exit', (code, signal) => resolve(code ?? (signal ? EXIT.FAILED : EXIT.OK)));
    });
  },
};

function hasTests(dir: string): boolean {
  if (!existsSync(dir)) return false;
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).some((f) => f.endsWith('.test.ts'));
}

/** How many credentials the client has, without creating a vault where none exists. */
async function storedCredentials(name: string, target: IntegrationTarget): Promise<number> {
  if (!existsSync(masterSecretPath(statePaths(target.stateDir)))) return 0;
  const vault = openClientVault(name, target);
  try {
    return (await vault.view.list()).length;
  } finally {
    await vault.close();
  }
}

async function runRealNodes(
  deps: TestRunnerDeps,
  io: CliIo,
  name: string,
  target: IntegrationTarget,
): Promise<number> {
  if (!hasTests(join(deps.root, REAL_NODE_TESTS))) {
    io.err(`${name}: no integration tests against real nodes in ${REAL_NODE_TESTS}/\n`);
    return EXIT.FAILED;
  }
  const count = await storedCredentials(name, target);
  if (count === 0) {
    io.err(
      `${name}: client ${target.client} has no credentials in ${target.stateDir}; store them first with ` +
        'node --import tsx scripts/store_integration_credentials.ts --help\n',
    );
    return EXIT.FAILED;
  }
  io.out(`\n== integration tests against real nodes: ${count} credential(s) of client ${target.client}\n`);
  const env = { ...io.env, [ENV_STATE_DIR]: target.stateDir, [ENV_CLIENT]: target.client };
  const code = await deps.runSuite([REAL_NODE_TESTS], env);
  io.out(
    code === 0
      ? 'integration tests against real nodes: passed\n'
      : 'integration tests against real nodes: FAILED\n',
  );
  return code === 0 ? EXIT.OK : EXIT.FAILED;
}

export function runTestsCommand(deps: TestRunnerDeps): CliCommand {
  return {
    name: 'run_tests',
    summary: 'run the test suite, then optionally the integration tests against real nodes',
    help: `First runs the suite (node --import tsx test/run.ts [paths]): unit tests and the integration tests
against the lab's simulated nodes. When it passes, asks whether to run the integration tests against real
managed nodes (${REAL_NODE_TESTS}/), which use the credentials stored in the vault of the integration-test
client by store_integration_credentials. Without a terminal they run only with --integration.

Positional arguments limit the first run to those test files or folders.

Examples:
  node --import tsx scripts/run_tests.ts
  node --import tsx scripts/run_tests.ts test/kernel/cli
  node --import tsx scripts/run_tests.ts --skip-unit --integration --state-dir /srv/uc-mcp

Exit codes:
  0  every run passed (real-node tests skipped or passed)
  1  a run failed, or real-node tests were requested with no stored credentials or no tests
  2  usage error`,
    options: [
      {
        name: 'integration',
        type: 'boolean',
        description: 'run the real-node integration tests without asking',
      },
      { name: 'no-integration', type: 'boolean', description: 'never run the real-node integration tests' },
      { name: 'skip-unit', type: 'boolean', description: 'skip the first run (unit and lab tests)' },
      {
        name: 'client',
        type: 'string',
        description: 'the integration-test client (default: integration-test)',
      },
      {
        name: 'state-dir',
        type: 'string',
        description:
          "state directory of its vault (default: UC_INTEGRATION_STATE_DIR, else the server's STATE_DIR)",
      },
    ],

    async run({ values, positionals }, io) {
      const name = this.name;
      if (values.integration === true && values['no-integration'] === true) {
        io.err(`${name}: --integration and --no-integration contradict each other\n`);
        return EXIT.USAGE;
      }
      if (!existsSync(join(deps.root, 'test', 'run.ts'))) {
        io.err(`${name}: no test suite in ${deps.root} (the container image does not ship test/)\n`);
        return EXIT.FAILED;
      }
      if (values['skip-unit'] !== true) {
        io.out(`== test suite: node --import tsx test/run.ts ${positionals.join(' ')}\n`);
        const code = await deps.runSuite(positionals, { ...io.env });
        if (code !== 0) {
          io.err(`${name}: the test suite failed (exit ${code}); real-node tests not offered\n`);
          return EXIT.FAILED;
        }
        io.out('test suite: passed\n');
      }
      if (values['no-integration'] === true) return EXIT.OK;
      const target = integrationTarget(io, name, {
        stateDir: values['state-dir'] as string | undefined,
        client: values.client as string | undefined,
      });
      if (values.integration !== true) {
        if (!io.interactive) {
          io.out(
            'integration tests against real nodes: skipped (no terminal; pass --integration to run them)\n',
          );
          return EXIT.OK;
        }
        const go = await confirm(
          io,
          `Run the integration tests against real nodes, with the credentials of client ${target.client} ` +
            `in ${target.stateDir}?`,
          { yes: false },
        );
        if (!go) {
          io.out('integration tests against real nodes: skipped\n');
          return EXIT.OK;
        }
      }
      return runRealNodes(deps, io, name, target);
    },
  };
}

export const command: CliCommand = runTestsCommand(processRunner);
