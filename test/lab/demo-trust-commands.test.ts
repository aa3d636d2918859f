// The trust commands `npm run demo` prints, run the way a user pastes them into a POSIX shell, against
// stand-in `sudo` and `security` programs that record what they were given: the CA file must arrive as
// one argument whatever its path holds, in the place each system store reads it from.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { trustCommands, trustInstructions } from '../../lab/demo/trust-commands.ts';
import { tempStateDir } from '../helpers/state-dir.ts';

describe('the CA trust commands the demo prints', () => {
  const tmp = tempStateDir('ucmcp-demo-trust-');
  after(() => tmp.cleanup());
  const caFile = join(tmp.dir, "it's a $HOME dir", 'secrets', 'ca_cert.pem');
  const bin = join(tmp.dir, 'bin');
  const record = join(tmp.dir, 'record.jsonl');
  mkdirSync(bin, { recursive: true });
  for (const program of ['sudo', 'security']) {
    const file = join(bin, program);
    writeFileSync(
      file,
      `#!${process.execPath}\nrequire('node:fs').appendFileSync(${JSON.stringify(record)}, JSON.stringify([${JSON.stringify(program)}, ...process.argv.slice(2)]) + '\\n');\n`,
    );
    chmodSync(file, 0o755);
  }
  const commands = new Map(trustCommands(caFile));

  /** Runs one printed line in sh; returns what the stand-ins recorded and what the line left in $NODE_EXTRA_CA_CERTS. */
  const runLine = (line: string): Promise<{ calls: string[][]; extra: string }> => {
    writeFileSync(record, '');
    return new Promise((resolve, reject) => {
      execFile(
        'sh',
        ['-c', `${line}\nprintf %s "$NODE_EXTRA_CA_CERTS"`],
        { env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` } },
        (err, stdout) => {
          if (err) return reject(err);
          const calls = readFileSync(record, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as string[]);
          resolve({ calls, extra: stdout });
        },
      );
    });
  };

  it('Debian/Ubuntu: the CA as a .crt in /usr/local/share/ca-certificates, then update-ca-certificates', async () => {
    const { calls } = await runLine(commands.get('Debian/Ubuntu') as string);
    assert.deepEqual(calls, [
      ['sudo', 'cp', caFile, '/usr/local/share/ca-certificates/uc-mcp-demo-ca.crt'],
      ['sudo', 'update-ca-certificates'],
    ]);
  });

  it('RHEL/Fedora: the CA in /etc/pki/ca-trust/source/anchors, then update-ca-trust', async () => {
    const { calls } = await runLine(commands.get('RHEL/Fedora') as string);
    assert.deepEqual(calls, [
      ['sudo', 'cp', caFile, '/etc/pki/ca-trust/source/anchors/uc-mcp-demo-ca.pem'],
      ['sudo', 'update-ca-trust'],
    ]);
  });

  it('macOS: a trusted root in the System keychain', async () => {
    const { calls } = await runLine(commands.get('macOS') as string);
    assert.deepEqual(calls, [
      [
        'sudo',
        'security',
        'add-trusted-cert',
        '-d',
        '-r',
        'trustRoot',
        '-k',
        '/Library/Keychains/System.keychain',
        caFile,
      ],
    ]);
  });

  it('Node clients: NODE_EXTRA_CA_CERTS names the CA file', async () => {
    assert.equal((await runLine(commands.get('Node clients') as string)).extra, caFile);
  });

  it('Windows adds to the Root store; nothing printed turns verification off', () => {
    assert.match(commands.get('Windows') as string, /^certutil -addstore -f Root ca_cert\.pem\b/);
    const text = trustInstructions(caFile);
    assert.doesNotMatch(text, /NODE_TLS_REJECT_UNAUTHORIZED|--insecure|rejectUnauthorized|curl -k/);
    assert.match(text, /Claude Code: the native build uses the system store/);
  });
});
