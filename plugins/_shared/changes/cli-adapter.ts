// The change gate's view of `*_os_run_command`. Only a service command (`utils service start|stop|restart
// <service>`) names an object the CLI can read back: its state in `utils service list`. Any other
// command's effect is not readable from the CLI in a form worth comparing, so its preview says so
// (`unreadable`) and carries the line that would be typed.
import { ProfilePermissionError, type ClientVault } from '../../../kernel/sdk/index.ts';
import { validateCommand } from '../vos/command-policy.ts';
import type { VosShellPool, VosProduct } from '../vos/shell-pool.ts';
import { classifyCli } from './classify.ts';
import type { ChangeAdapter, ChangePreview, GateInput } from './gate-types.ts';

export interface CliChangeInput extends GateInput {
  host: string;
  command: string;
}

const SERVICE_COMMAND = /^utils\s+service\s+(start|stop|restart)\s+(.+)$/i;
const LIST = 'utils service list';
const EXPECTED: Record<string, string> = {
  start: 'STARTED',
  stop: 'STOPPED',
  restart: 'STARTED (restarted)',
};

export function cliChangeAdapter(
  shells: VosShellPool,
  vault: ClientVault,
  product: VosProduct,
  signal?: AbortSignal,
): ChangeAdapter<CliChangeInput> {
  /** The service's state, or why it cannot be read (the caller may not run `utils service list`). */
  const stateOf = async (
    host: string,
    service: string,
  ): Promise<{ state: string } | { unreadable: string }> => {
    let out: string;
    try {
      out = (await shells.run(vault, product, host, LIST, signal ? { signal } : {})).output;
    } catch (err) {
      if (err instanceof ProfilePermissionError)
        return { unreadable: `this profile may not run ${LIST}, which reads the service's state` };
      throw err;
    }
    return { state: serviceState(out, service) ?? '(not listed)' };
  };
  const read = async (i: CliChangeInput): Promise<unknown> => {
    const m = SERVICE_COMMAND.exec(validateCommand(i.command));
    if (!m) return null;
    const service = (m[2] ?? '').trim();
    const s = await stateOf(i.host, service);
    return 'state' in s ? { service, state: s.state } : null;
  };
  return {
    kind: 'cli',
    classify: (i) => classifyCli(validateCommand(i.command)).class,
    async preview(i): Promise<ChangePreview> {
      const line = validateCommand(i.command);
      const cls = classifyCli(line).class;
      const base = {
        change_class: cls === 'read' ? ('change' as const) : cls,
        kind: 'cli' as const,
        operation: line,
        request: { command: line },
      };
      const m = SERVICE_COMMAND.exec(line);
      if (!m)
        return {
          ...base,
          object: { type: 'cli', path: line },
          before: null,
          diff: [],
          unreadable:
            'the CLI has no read-back for this command: only utils service start, stop and restart have a before-image',
        };
      const action = (m[1] ?? '').toLowerCase();
      const service = (m[2] ?? '').trim();
      const s = await stateOf(i.host, service);
      if (!('state' in s))
        return {
          ...base,
          object: { type: 'service', name: service },
          before: null,
          diff: [],
          unreadable: s.unreadable,
        };
      return {
        ...base,
        object: { type: 'service', name: service },
        before: { service, state: s.state },
        diff: [{ path: service, before: s.state, after: EXPECTED[action] ?? null }],
      };
    },
    readAfter: (i) => read(i),
  };
}

/** A service's state in `utils service list` (`Name[STARTED]`, or `Name [STARTED]` as some lines print). */
export function serviceState(out: string, service: string): string | undefined {
  const want = service.toLowerCase();
  for (const line of out.split('\n')) {
    const m = /^\s*(.+?)\s*\[\s*([A-Z]+)\s*\]/.exec(line);
    if (m && (m[1] ?? '').toLowerCase() === want) return m[2];
  }
  return undefined;
}
