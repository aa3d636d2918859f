// The change gate's view of `*_service_control`: the before-image is each named service's state as
// ControlCenterServices soapGetServiceStatus reports it, the after-image the states soapDoControlServices
// answers with (the same ServiceInformation).
// Only name and state are compared: start time and uptime move on their own between preview and apply.
import { NotFoundError, type ClientVault } from '../../../kernel/sdk/index.ts';
import type { ControlType } from '../serviceability/control-center/api.ts';
import type { ServiceabilityClient } from '../serviceability/client.ts';
import { nodeStatus, type ControlResult } from '../serviceability/control-center/service.ts';
import { classifyServiceControl } from './classify.ts';
import type { ChangeAdapter, ChangePreview, GateInput } from './gate-types.ts';

export interface ServiceControlInput extends GateInput {
  host: string;
  action: 'start' | 'stop' | 'restart';
  services: string[];
}

export const CONTROL_TYPES: Record<ServiceControlInput['action'], ControlType> = {
  start: 'Start',
  stop: 'Stop',
  restart: 'Restart',
};

/** What each action leaves a service in, as the diff shows it. */
const EXPECTED: Record<ServiceControlInput['action'], string> = {
  start: 'Started',
  stop: 'Stopped',
  restart: 'Started (restarted)',
};

export function serviceControlAdapter(
  client: ServiceabilityClient,
  vault: ClientVault,
  signal?: AbortSignal,
): ChangeAdapter<ServiceControlInput> {
  const states = async (i: ServiceControlInput): Promise<Record<string, string>> => {
    const r = await nodeStatus(client, vault, i.host, i.services, false, signal);
    if (r.unknown.length > 0)
      throw new NotFoundError(`${i.host} has no service named ${r.unknown.map((m) => `"${m}"`).join(', ')}`);
    const out: Record<string, string> = {};
    for (const s of r.services) out[s.name] = s.status;
    return out;
  };
  return {
    kind: 'service_control',
    classify: (i) => classifyServiceControl(i.action).class,
    async preview(i): Promise<ChangePreview> {
      const before = await states(i);
      const cls = classifyServiceControl(i.action).class;
      return {
        change_class: cls === 'read' ? 'change' : cls,
        kind: 'service_control',
        operation: `${i.services.join(', ')}: ${CONTROL_TYPES[i.action]}`,
        object: { type: 'service', name: i.services.join(', ') },
        before,
        request: {
          operation: 'soapDoControlServices',
          action: CONTROL_TYPES[i.action],
          services: i.services,
        },
        diff: Object.entries(before).map(([name, state]) => ({
          path: name,
          before: state,
          after: EXPECTED[i.action],
        })),
      };
    },
    // The control's own answer is each service's state after it (ControlResult): reading the status
    // again would take another of the node's 15 Control Center requests a minute for the same facts.
    readAfter: (i, _p, applied) => {
      const r = applied as Partial<ControlResult> | undefined;
      if (!Array.isArray(r?.services)) return states(i);
      const out: Record<string, string> = {};
      for (const s of r.services) out[s.name] = s.status;
      return Promise.resolve(out);
    },
  };
}
