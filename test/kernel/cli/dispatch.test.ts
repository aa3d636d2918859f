import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { dispatch, runNamed } from '../../../kernel/cli/dispatch.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { fakeIo } from './fake-io.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'commands');

/** The spec's operator scripts (functional spec, Operator scripts) and the test utilities. */
const SPEC_COMMANDS = [
  'backup_restore',
  'certificate_generate_csr',
  'encrypt_sftp_password',
  'export_mcp_definitions',
  'license_checker',
  'rotate_rsa_keys',
  'show_tech',
  'update_manifest',
  'validate_scanner_output',
  'run_tests',
  'store_integration_credentials',
];

function runMain(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'kernel', 'cli', 'main.ts'), ...args],
    {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('kernel CLI dispatcher', () => {
  it('--help lists every command found in the directory, with the shared exit codes; a broken module is named', async () => {
    const io = fakeIo();
    assert.equal(await dispatch(['--help'], io, FIXTURES), 0);
    assert.match(io.stdout, /greet_people +say hello/);
    assert.match(io.stdout, /elsewhere +lives in odd-file\.ts/);
    assert.match(io.stdout, /broken\.ts +\(not usable: exports no valid `command`\)/);
    assert.match(io.stdout, /Exit codes:\n +0 +success\n +1 .*\n +2 +usage error.*\n +3 +declined/);
    const none = fakeIo();
    assert.equal(await dispatch([], none, FIXTURES), 2, 'no command is a usage error');
    assert.match(none.stderr, /Usage:/);
  });

  it('<command> --help prints the summary, every option, the help text and the exit codes', async () => {
    const io = fakeIo();
    assert.equal(await dispatch(['greet_people', '--help'], io, FIXTURES), 0);
    assert.match(io.stdout, /^Usage: node --import tsx kernel\/cli\/main\.ts greet_people \[options\]/);
    assert.match(io.stdout, /say hello/);
    assert.match(io.stdout, /-n, --name <value> +who to greet/);
    assert.match(io.stdout, /--fail +exit 1/);
    assert.match(io.stdout, /-h, --help +this text/);
    assert.match(io.stdout, /Greets whoever --name names\./);
    assert.match(io.stdout, /Exit codes:\n +0 +success/);
    const h = fakeIo();
    assert.equal(await dispatch(['help', 'greet-people'], h, FIXTURES), 0, "'help <command>' and hyphens");
    assert.equal(h.stdout, io.stdout);
    const own = fakeIo();
    await dispatch(['elsewhere', '-h'], own, FIXTURES);
    assert.match(own.stdout, /Exit codes: 0 always\./);
    assert.doesNotMatch(
      own.stdout,
      /3 +declined/,
      'a command documenting its own exit codes is not contradicted',
    );
  });

  it('parses options strictly: unknown command or option is exit 2, a failure exit 1, a throw exit 1 with its message', async () => {
    const ok = fakeIo();
    assert.equal(await dispatch(['greet_people', '-n', 'Ada', 'x', 'y'], ok, FIXTURES), 0);
    assert.equal(ok.stdout, 'hello Ada x,y\n');
    const unknownCommand = fakeIo();
    assert.equal(await dispatch(['nope'], unknownCommand, FIXTURES), 2);
    assert.match(unknownCommand.stderr, /unknown command 'nope'/);
    const unknownOption = fakeIo();
    assert.equal(await dispatch(['greet_people', '--bogus'], unknownOption, FIXTURES), 2);
    assert.match(unknownOption.stderr, /greet_people: Unknown option '--bogus'/);
    assert.equal(await dispatch(['greet_people', '--name'], fakeIo(), FIXTURES), 2, 'missing value');
    assert.equal(await dispatch(['--verbose', 'greet_people'], fakeIo(), FIXTURES), 2);
    assert.equal(await dispatch(['greet_people', '--fail'], fakeIo(), FIXTURES), 1);
    const thrown = fakeIo();
    assert.equal(await dispatch(['greet_people', '--throw'], thrown, FIXTURES), 1);
    assert.equal(thrown.stderr, 'greet_people: boom\n');
    assert.equal(await runNamed('elsewhere', [], fakeIo(), FIXTURES), 0, 'found outside its own file name');
    assert.equal(
      await runNamed('broken', [], fakeIo(), FIXTURES),
      1,
      'a broken module is a failure, not a crash',
    );
    assert.equal(await runNamed('../greet', [], fakeIo(), FIXTURES), 2, 'a name is never a path');
  });

  it('the real CLI lists every operator script of the spec and the test utilities', async () => {
    const r = await runMain(['--help']);
    assert.equal(r.code, 0, r.stderr);
    for (const name of SPEC_COMMANDS) assert.match(r.stdout, new RegExp(`^  ${name} `, 'm'), name);
    assert.doesNotMatch(r.stdout, /not usable/);
    const bad = await runMain(['definitely_not_a_command']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown command/);
  });
});
