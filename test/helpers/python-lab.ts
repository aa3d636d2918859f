// Independent python clients (zeep, paramiko) against the lab, as the tests in test/clients drive them:
// a python3 that has the modules or a skip that says why, the lab started for the describe block, and a
// script of test/clients/python given the lab's description (addresses, certificates, credentials) and a
// work folder, whose one JSON object on stdout is what the test checks.
import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { promisify } from 'node:util';
import { startLab, type Lab } from '../../lab/index.ts';
import { tempStateDir } from './state-dir.ts';

const SCRIPTS = join(import.meta.dirname, '..', 'clients', 'python');

/** The system python3 first (where Debian's python3-zeep goes), then python3 on PATH. */
const CANDIDATES = ['/usr/bin/python3', 'python3'];

export interface PythonFound {
  python?: string;
  /** For describe's `skip`: false where a python3 was found, else why there is none. */
  skip: string | false;
}

/** "a, b and c" */
function listed(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The first python3 that imports every module. Where there is none the file's tests are skipped
 * (a clean CI machine may lack them), and the reason is printed as the file loads: `# <what> test
 * skipped: no python3 with ... (<each candidate's error>)`.
 */
export function pythonWith(what: string, modules: readonly string[] = ['zeep', 'requests']): PythonFound {
  const tried: string[] = [];
  for (const candidate of CANDIDATES) {
    const r = spawnSync(candidate, ['-c', `import ${modules.join(', ')}`], { encoding: 'utf8' });
    if (r.status === 0) return { python: candidate, skip: false };
    tried.push(
      `${candidate}: ${r.error ? r.error.message : (r.stderr.trim().split('\n').at(-1) ?? 'failed')}`,
    );
  }
  const reason = `no python3 with ${listed(modules)} (${tried.join('; ')})`;
  console.log(`# ${what} test skipped: ${reason}`);
  return { skip: reason };
}

export interface PythonLabRun<T> {
  /** The lab the script talked to (set once the describe block's `before` has run). */
  readonly lab: Lab;
  /** The script's JSON answer. */
  readonly results: T;
}

export interface PythonLabOptions {
  /** The script's file name in test/clients/python. */
  script: string;
  /** Prefix of the temporary folder that holds the lab's state and the script's work files. */
  prefix: string;
  /** The script's own arguments, after the lab description and the work folder. */
  args?: (lab: Lab) => string[];
  timeoutMs?: number;
  maxBufferBytes?: number;
}

/**
 * Inside a describe block: starts the lab before its tests, runs the script once against it with the
 * lab's description, and stops the lab after. The script runs asynchronously: the lab answers from
 * this process's event loop.
 */
export function pythonAgainstLab<T>(found: PythonFound, o: PythonLabOptions): PythonLabRun<T> {
  let state: ReturnType<typeof tempStateDir> | undefined;
  let lab: Lab | undefined;
  let results: T | undefined;
  before(async () => {
    if (!found.python) throw new Error(`no python3 to run ${o.script}: ${String(found.skip)}`);
    state = tempStateDir(o.prefix);
    lab = await startLab({ stateDir: state.dir, loginDelayMs: 50 });
    const infoPath = join(state.dir, 'lab-info.json');
    writeFileSync(infoPath, JSON.stringify(lab.info), { mode: 0o600 });
    const args = ['-B', join(SCRIPTS, o.script), infoPath, state.dir, ...(o.args?.(lab) ?? [])];
    const run = await promisify(execFile)(found.python, args, {
      encoding: 'utf8',
      timeout: o.timeoutMs ?? 120_000,
      maxBuffer: o.maxBufferBytes ?? 4 * 1024 * 1024,
    }).catch((err: { stderr?: string; message: string }) => {
      throw new Error(`the python session failed: ${err.stderr?.slice(-3_000) ?? err.message}`);
    });
    results = JSON.parse(run.stdout) as T;
  });
  after(async () => {
    await lab?.stop();
    state?.cleanup();
  });
  return {
    get lab() {
      if (!lab) throw new Error('the lab is not started yet');
      return lab;
    },
    get results() {
      if (results === undefined) throw new Error(`${o.script} has not answered yet`);
      return results;
    },
  };
}
