import {
  ProfilePermissionError,
  structuredReply,
  toolsFor,
  z,
  type Product,
} from '../../../kernel/sdk/index.ts';
import { CHANGE_CLASS_NOTE, classifyServiceControl } from '../changes/classify.ts';
import { gateChange } from '../changes/gate.ts';
import { CONTROL_TYPES as ACTIONS, serviceControlAdapter } from '../changes/service-control-adapter.ts';
import { assertCarriable } from '../node/wire-text.ts';
import { controlServices } from '../serviceability/control-center/service.ts';
import type { ServiceabilityState } from '../serviceability/state.ts';
import { hostField } from './credential-input.ts';
import { GATE_NOTE, gateInput, gateOutput, gateReply } from './gate-fields.ts';
import { PRODUCT_LABEL } from './product-labels.ts';
import { serviceControlOutput } from './service-output.ts';
import { serviceName } from './service-status.ts';

/** `<product>_service_control`: start, stop or restart services on one node (soapDoControlServices). */
export function serviceControlTool(product: Product) {
  return toolsFor<ServiceabilityState>()({
    name: 'service_control',
    title: `Start, stop or restart ${PRODUCT_LABEL[product]} services (Control Center)`,
    description: `Starts, stops or restarts services on one node through Cisco Unified Serviceability's Control Center (ControlCenterServices soapDoControlServices), as the Control Center pages do. Stopping or restarting a service interrupts what it serves (stopping Cisco CallManager unregisters the node's phones): only the admin profile may make it. Only feature services (those activated in Service Activation) can be controlled; the node refuses network services, services not activated, a start of a started or a stop of a stopped service, and the answer says why. Names are checked first: an unknown name changes nothing. ${CHANGE_CLASS_NOTE} A start is a change; a stop or restart is destructive. ${GATE_NOTE}`,
    input: {
      host: hostField,
      action: z.enum(['start', 'stop', 'restart']),
      services: z.array(serviceName).min(1).max(20).describe('e.g. ["Cisco Tftp"]'),
      ...gateInput,
    },
    output: { ...serviceControlOutput, ...gateOutput },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    access: { allowlist: 'serviceability', subject: () => 'soapDoControlServices' },
    service: 'serviceability',
    summary: (i) => ({
      operation: 'soapDoControlServices',
      detail: `${ACTIONS[i.action]} ${i.services.slice(0, 8).join(', ')}${i.dry_run ? ' (dry run)' : ''}`,
    }),
    async handler(input, ctx) {
      if (ctx.caller.profile !== 'admin')
        throw new ProfilePermissionError('only the admin profile may start, stop or restart services');
      assertCarriable(input.services, 'services', 'xml');
      const client = ctx.shared.serviceability;
      const out = await gateChange(
        ctx,
        serviceControlAdapter(client, ctx.vault, ctx.signal),
        input,
        () =>
          controlServices(client, ctx.vault, input.host, ACTIONS[input.action], input.services, ctx.signal, {
            namesChecked: true,
          }),
        { host: input.host },
      );
      const change_class = classifyServiceControl(input.action).class;
      return gateReply(out, { node: input.host, action: ACTIONS[input.action], change_class }, (result) => {
        ctx.log.info(
          { host: input.host, action: input.action, services: input.services },
          'services controlled through ControlCenterServices',
        );
        return structuredReply({ ...result, change_class });
      });
    },
  });
}
