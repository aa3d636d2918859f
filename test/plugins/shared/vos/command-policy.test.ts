import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BadRequestError } from '../../../../kernel/sdk/index.ts';
import {
  DEFAULT_TIME_BUDGET_MS,
  MAX_COMMAND_LENGTH,
  timeBudget,
  validateCommand,
} from '../../../../plugins/_shared/vos/command-policy.ts';
import { cleanOutput, failureText, screenEnd } from '../../../../plugins/_shared/vos/cli-output.ts';
import { sshAddress } from '../../../../plugins/_shared/vos/ssh-connect.ts';

describe('VOS command policy', () => {
  it('normalises spaces and keeps one printable line', () => {
    assert.equal(validateCommand('  show   version  active '), 'show version active');
    assert.equal(
      validateCommand("run sql select name from device where name like 'SEP%'"),
      "run sql select name from device where name like 'SEP%'",
    );
  });

  it('refuses newlines, control characters, escapes, non-ASCII, empty and long commands by name', () => {
    const cases: [unknown, RegExp][] = [
      ['show version\nutils system restart', /newline/],
      ['show version\r', /newline/],
      ['show\tversion', /control character \(0x09\)/],
      ['show\x00version', /control character \(0x00\)/],
      ['show version\x7f', /control character \(0x7f\)/],
      ['\x1b[31mshow version', /ANSI escape/],
      ['show versión', /non-ASCII/],
      ['   ', /empty/],
      ['show ' + 'x'.repeat(MAX_COMMAND_LENGTH), /too long/],
      ['x'.repeat(100_000), /too long/],
      [42, /must be a string/],
    ];
    for (const [command, message] of cases) {
      assert.throws(
        () => validateCommand(command),
        (err: unknown) => {
          assert.ok(err instanceof BadRequestError);
          assert.match(err.message, message);
          return true;
        },
      );
    }
  });

  it('gives realistic time budgets by whole-word prefix', () => {
    assert.equal(timeBudget('show version active'), 30_000);
    assert.equal(timeBudget('utils service list'), 120_000);
    assert.equal(timeBudget('utils dbreplication runtimestate'), 180_000);
    assert.equal(timeBudget('utils diagnose test'), 300_000);
    assert.equal(timeBudget('UTILS  Service List'), 120_000);
    assert.equal(timeBudget('utils ntp status'), DEFAULT_TIME_BUDGET_MS);
    assert.equal(timeBudget('showx'), DEFAULT_TIME_BUDGET_MS);
  });
});

describe('VOS screen reading', () => {
  it('finds the prompt, --More-- and y/n questions at the end only', () => {
    assert.equal(screenEnd('out\r\nadmin:'), 'prompt');
    assert.equal(screenEnd('line\r\n--More--'), 'more');
    assert.equal(screenEnd('Continue (y/n)? '), 'confirm');
    assert.equal(screenEnd('admin: is a user\r\nmore'), undefined);
  });

  it('strips the echo, page breaks and the prompt', () => {
    const raw = 'show x\r\na\r\n--More--\r        \rb\r\n\x1b[0mc\r\nadmin:';
    assert.equal(cleanOutput(raw, 'show x'), 'a\nb\nc');
  });

  it('reports the node text of a failure', () => {
    assert.equal(failureText('Active Master Version: 15'), undefined);
    assert.equal(
      failureText('Executed command unsuccessfully\nNo valid command entered'),
      'Executed command unsuccessfully / No valid command entered',
    );
  });

  it('reads host:port addresses', () => {
    assert.deepEqual(sshAddress('cucm1', undefined), { host: 'cucm1', port: 22 });
    assert.deepEqual(sshAddress('cucm1:2222', {}), { host: 'cucm1', port: 2222 });
    assert.deepEqual(sshAddress('cucm1', { address: '10.0.0.5:2022' }), { host: '10.0.0.5', port: 2022 });
    assert.deepEqual(sshAddress('[2001:db8::1]', undefined), { host: '2001:db8::1', port: 22 });
    assert.throws(() => sshAddress('cucm1', { address: 'a:b:c' }), /host\[:port\]/);
    assert.throws(() => sshAddress('cucm1:70000', undefined), /between 1 and 65535/);
  });
});
