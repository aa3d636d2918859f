// A hostile VOS CLI accepts the SSH connection and the login, opens the shell, and then never shows the
// `admin:` prompt, or never answers a command. Through the real tools: cucm_check_connectivity and the
// *_os_run_command tools fail with SSHError within the login budget (30 s, or NODE_TIMEOUT_MS when
// shorter: 4 s here) or the command's own budget,
// the lab sees the session closed, and the next call logs in afresh instead of riding a stuck shell.
// The three attacks run side by side on three nodes, so the file waits out one login budget, not three.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

/** The login budget: 30 s by default, NODE_TIMEOUT_MS when shorter (here, to keep the file quick). */
const LOGIN_BUDGET_MS = 4_000;

describe('hostile node: an SSH shell that never prompts or never answers', () => {
  let s: ProductStack;
  before(async () => {
    // The operator's vault is seeded with the lab's OS credentials and pinned host keys.
    s = await startProductStack({ env: { NODE_TIMEOUT_MS: String(LOGIN_BUDGET_MS) } });
  });
  after(async () => {
    await s?.stop();
  });

  const timed = async <T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> => {
    const started = performance.now();
    const value = await run();
    return { value, ms: performance.now() - started };
  };

  const shellClosed = async (): Promise<void> => {
    const until = Date.now() + 5_000;
    while (s.lab.state.hostile.stats.sshStuckOpen > 0) {
      if (Date.now() > until) assert.fail('a stuck shell is still open on the node');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('no prompt, no answer at login, no answer to a command: SSHError within budget, nothing left open', async () => {
    const [cucm, imp, cuc] = [s.node('cucm').name, s.node('imp').name, s.node('cuc').name];
    const show = { command: 'show version active' };
    // CUC: a shell already open and working, then the node stops answering.
    const first = await s.ok('operator', 'cuc_os_run_command', { host: cuc, ...show });
    assert.equal(first.reused_shell, false);
    s.lab.state.hostile.set({ ssh: 'no-prompt' }, [cucm]);
    s.lab.state.hostile.set({ ssh: 'no-answer' }, [imp, cuc]);

    const [check, run, atLogin, command] = await Promise.all([
      timed(() => s.ok('operator', 'cucm_check_connectivity', { host: cucm })),
      timed(() => s.fails('operator', 'cucm_os_run_command', { host: cucm, ...show, timeout_s: 5 })),
      timed(() => s.fails('operator', 'imp_os_run_command', { host: imp, ...show, timeout_s: 2 })),
      timed(() => s.fails('operator', 'cuc_os_run_command', { host: cuc, ...show, timeout_s: 2 })),
    ]);

    const ssh = (check.value.services as Record<string, { ok: boolean; error?: string; reason?: string }>)
      .ssh;
    assert.equal(check.value.ok, false);
    assert.equal(ssh?.ok, false);
    assert.equal(ssh?.error, 'SSHError', JSON.stringify(ssh));
    assert.match(String(ssh?.reason), /did not show the admin: prompt within 4 s/);
    assert.equal(run.value.error, 'SSHError', run.value.message);
    assert.match(run.value.message, /admin: prompt within 4 s/);
    assert.equal(atLogin.value.error, 'SSHError', atLogin.value.message);
    assert.match(
      atLogin.value.message,
      /did not answer "set cli pagination off" within the 4 s login budget/,
    );
    assert.equal(command.value.error, 'SSHError', command.value.message);
    assert.match(command.value.message, /"show version active" did not finish within 2 s/);
    for (const [what, t, budget] of [
      ['check_connectivity', check, LOGIN_BUDGET_MS],
      ['run_command at a silent login', run, LOGIN_BUDGET_MS],
      ['run_command at a login that answers nothing', atLogin, LOGIN_BUDGET_MS],
      ['run_command on an open shell', command, 2_000],
    ] as const) {
      assert.ok(t.ms >= budget - 100, `${what} gave up after ${Math.round(t.ms)} ms, before its budget`);
      assert.ok(t.ms < budget + 3_000, `${what} took ${Math.round(t.ms)} ms, past its budget of ${budget}`);
    }
    await shellClosed();
    assert.ok(s.lab.state.hostile.stats.sshStuckTotal >= 3, 'every attack held a shell');

    // The nodes behave again: each call logs in afresh (the pool kept no stuck shell) and works.
    s.lab.state.hostile.clear();
    for (const tool of ['cucm_os_run_command', 'imp_os_run_command', 'cuc_os_run_command']) {
      const host = s.node(tool.slice(0, tool.indexOf('_')) as 'cucm' | 'imp' | 'cuc').name;
      const r = await s.ok('operator', tool, { host, ...show });
      assert.equal(r.reused_shell, false, `${tool} rode a stuck shell`);
      assert.match(String(r.output), /Active Master Version/);
    }
  });
});
