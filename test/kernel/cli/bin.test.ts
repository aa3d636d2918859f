// The `ucmcp` bin of package.json: runs the kernel CLI from plain node, through npx in the checkout and
// through a symbolic link from elsewhere (what an npm install puts in node_modules/.bin).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { listCoveredFiles } from '../../../kernel/integrity/tree.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  bin?: Record<string, string>;
};
const BIN_REL = pkg.bin?.ucmcp ?? '';
const BIN = join(PROJECT_ROOT, BIN_REL);

describe('the ucmcp bin', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ucmcp-bin-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is declared in package.json, starts with a node shebang and is covered by the manifest', async () => {
    assert.ok(BIN_REL, 'package.json bin.ucmcp');
    assert.match(readFileSync(BIN, 'utf8'), /^#!\/usr\/bin\/env node\n/);
    const covered = (await listCoveredFiles(PROJECT_ROOT)).map((e) => e.path);
    assert.ok(covered.includes(BIN_REL), `${BIN_REL} is in the signed tree`);
  });

  it('prints the package version through node <bin>', async () => {
    const { stdout } = await run(process.execPath, [BIN, '--version'], { cwd: dir });
    assert.equal(stdout.trim(), pkg.version);
  });

  it('prints the package version through npx --no-install ucmcp in the checkout', async () => {
    const { stdout } = await run('npx', ['--no-install', 'ucmcp', '--version'], { cwd: PROJECT_ROOT });
    assert.equal(stdout.trim(), pkg.version);
  });

  it('runs as an executable through a symbolic link elsewhere and lists the commands on --help', async () => {
    const link = join(dir, 'ucmcp');
    symlinkSync(BIN, link);
    assert.equal((await run(link, ['--version'], { cwd: dir })).stdout.trim(), pkg.version);
    const { stdout } = await run(link, ['--help'], { cwd: dir });
    assert.match(stdout, /^Commands:$/m);
    assert.match(stdout, /^ {2}license_checker /m);
    assert.match(stdout, /^ {2}update_manifest /m);
  });
});
