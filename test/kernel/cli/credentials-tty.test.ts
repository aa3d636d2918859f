// `ucmcp credentials store` typed at a real pseudo-terminal (python3's pty): the password is asked
// twice and never shown, what was typed is what is sealed, and Ctrl-C leaves with nothing stored.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import bunyan from 'bunyan';
import { AuditLog } from '../../../kernel/audit/audit-log.ts';
import { statePaths } from '../../../kernel/paths.ts';
import { Vault } from '../../../kernel/vault/index.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { UCMCP_BIN } from '../../helpers/ucmcp-process.ts';

const PTY_RUN = join(import.meta.dirname, 'fixtures', 'pty-run.py');
const TYPED = 'Tty-Canary-4d2';

function hasPython(): boolean {
  try {
    execFileSync('python3', ['-c', 'import pty'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe(
  'ucmcp credentials at a terminal',
  { skip: hasPython() ? false : 'python3 with pty is needed' },
  () => {
    const temp = tempStateDir('ucmcp-cred-tty-');
    after(() => temp.cleanup());
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ENV_FILE: '',
      STATE_DIR: temp.dir,
      AUTH_CLIENTS: 'noc1:operator:cucm',
      SERVER_HOST: '127.0.0.1',
      SERVER_PORT: '18443',
      TERM: 'dumb',
    };
    const args = [
      'credentials',
      'store',
      '--client',
      'noc1',
      '--product',
      'cucm',
      '--host',
      'cucm1',
      '-u',
      'ops',
    ];
    const atTerminal = async (script: [string, string][], extra: string[] = []) => {
      const run = promisify(execFile);
      try {
        const r = await run(
          'python3',
          [PTY_RUN, JSON.stringify(script), process.execPath, UCMCP_BIN, ...args, ...extra],
          { env, timeout: 120_000 },
        );
        return { code: 0, shown: r.stdout };
      } catch (err) {
        const e = err as { code?: number; stdout?: string; stderr?: string };
        return { code: e.code ?? -1, shown: `${e.stdout ?? ''}${e.stderr ?? ''}` };
      }
    };

    it('reads the password twice without echo, with backspace, and seals what was typed', async () => {
      const r = await atTerminal(
        [
          ['Password (not echoed): ', `${TYPED}X\u007f\r`],
          ['Password again: ', `${TYPED}\r`],
        ],
        ['--address', '127.0.0.1:8443'],
      );
      assert.equal(r.code, 0, r.shown);
      assert.match(r.shown, /Stored cucm axl credentials for cucm1 in the vault of client noc1/);
      assert.ok(!r.shown.includes('Tty-Canary'), `the terminal showed the password: ${r.shown}`);
      const audit = new AuditLog({ path: join(temp.dir, 'inspect.log'), maxBytes: 1e6, maxFiles: 1 });
      try {
        const vault = Vault.open(
          statePaths(temp.dir),
          audit,
          bunyan.createLogger({ name: 't', streams: [] }),
        );
        assert.equal((await vault.forClient('noc1').get('cucm', 'axl', 'cucm1')).password, TYPED);
      } finally {
        await audit.close();
      }
    });

    it('stops on Ctrl-C at the prompt, with nothing stored', async () => {
      const r = await atTerminal([['Password (not echoed): ', 'abc\u0003']], ['--address', '127.0.0.1:8444']);
      assert.equal(r.code, 3, r.shown);
      assert.match(r.shown, /no password given/);
      assert.ok(!r.shown.includes('abc'));
    });
  },
);
