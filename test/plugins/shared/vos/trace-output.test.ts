// The trace commands this server types and what it reads back: the levels as the CLI reference spells
// them, task names that cannot carry a second command, and readers that say when they recognise nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  parseTraceState,
  parseTraceTasks,
  setTraceCommand,
  showTraceCommand,
  TASK_NAME,
  traceLevelOf,
  TRACE_LEVELS,
} from '../../../../plugins/_shared/vos/trace-output.ts';
import { validateCommand } from '../../../../plugins/_shared/vos/command-policy.ts';

describe('VOS trace commands and answers', () => {
  it('spells the commands as the CLI reference does', () => {
    assert.equal(setTraceCommand('State_Transition', 'cdps'), 'set trace enable State_Transition cdps');
    assert.equal(setTraceCommand('disabled', 'cdpmib'), 'set trace disable cdpmib');
    assert.equal(showTraceCommand('cdps'), 'show trace cdps');
    for (const l of TRACE_LEVELS)
      assert.equal(validateCommand(setTraceCommand(l, 'cdps')), setTraceCommand(l, 'cdps'));
  });

  it('takes a task name as one word only', () => {
    for (const ok of ['cdps', 'cdpmib', 'dbl.cdr', 'a_b-c']) assert.match(ok, TASK_NAME);
    for (const bad of ['cdps extra', 'cdps;reboot', '-x', '', 'a'.repeat(65), 'cdps\nutils system restart'])
      assert.doesNotMatch(bad, TASK_NAME);
  });

  it('reads a level however it is written', () => {
    assert.equal(traceLevelOf('State Transition'), 'State_Transition');
    assert.equal(traceLevelOf('entry/exit'), 'Entry_exit');
    assert.equal(traceLevelOf('DETAILED'), 'Detailed');
    assert.equal(traceLevelOf('Verbose'), undefined);
  });

  it('lists task names, skipping headings and failure text', () => {
    assert.deepEqual(parseTraceTasks('Available tasks:\ncdps\ncdpmib\n'), ['cdps', 'cdpmib']);
    assert.deepEqual(parseTraceTasks('Executed command unsuccessfully\n'), []);
  });

  it('reads one task state, and says when it recognises none', () => {
    assert.deepEqual(parseTraceState('Task name: cdps\nTrace enabled: true\nTrace level: Detailed\n'), {
      enabled: true,
      level: 'Detailed',
      recognised: true,
    });
    assert.deepEqual(parseTraceState('Trace level: Entry/Exit'), {
      enabled: true,
      level: 'Entry_exit',
      recognised: true,
    });
    assert.deepEqual(parseTraceState('Trace enabled: false\nTrace level: Error'), {
      enabled: false,
      level: 'Error',
      recognised: true,
    });
    assert.deepEqual(parseTraceState('something else entirely'), {
      enabled: null,
      level: null,
      recognised: false,
    });
  });
});
