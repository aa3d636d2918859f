import {
  BadRequestError,
  ProfilePermissionError,
  structuredReply,
  toolsFor,
  z,
  type Product,
} from '../../../kernel/sdk/index.ts';
import { assertCarriable } from '../node/wire-text.ts';
import type { ControlType } from '../serviceability/control-center/api.ts';
import { controlServices } from '../serviceability/control-center/service.ts';
import type { ServiceabilityState } from '../serviceability/state.ts';
import { hostField } from './credential-input.ts';
import { PRODUCT_LABEL } from './product-labels.ts';
import { serviceControlOutput } from './service-output.ts';
import { serviceName } from './service-status.ts';

const ACTIONS: Record<'start' | 'stop' | 'restart', ControlType> = {
  start: 'Start',
  stop: 'Stop',
  restart: 'Restart',
};

/** `<product>_service_control`: start, stop or restart services on one node (soapDoControlServices). */
export function serviceControlTool(product: Product) {
  return toolsFor<ServiceabilityState>()({
    name: 'service_control',
    title: `Start, stop or restart ${PRODUCT_LABEL[product]} services (Control Center)`,
    description: `Starts, stops or restarts services on one node through Cisco Unified Serviceability's Control Center (ControlCenterServices soapDoControlServices), as the Control Center pages do. Stopping or restarting a service interrupts what it serves (stopping Cisco CallManager unregisters the node's phones): the call is refused unless confirm is true, and only the admin profile may make it. Only feature services (those activated in Service Activation) can be controlled; the node refuses network services, services not activated, a start of a started or a stop of a stopped service, and the answer says why. Names are checked first: an unknown name changes nothing.`,
    input: {
      host: hostField,
      action: z.enum(['start', 'stop', 'restart']),
      services: z.array(serviceName).min(1).max(20).describe('e.g. ["Cisco Tftp"]'),
      confirm: z
        .boolean()
        .default(false)
        .describe('Must be true: the change interrupts service (admin only)'),
    },
    output: serviceControlOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    access: { allowlist: 'serviceability', subject: () => 'soapDoControlServices' },
    service: 'serviceability',
    summary: (i) => ({
      operation: 'soapDoControlServices',
      detail: `${ACTIONS[i.action]} ${i.services.slice(0, 8).join(', ')}${i.confirm ? '' : ' (not confirmed)'}`,
    }),
    async handler(input, ctx) {
      if (ctx.caller.profile !== 'admin')
        throw new ProfilePermissionError('only the admin profile may start, stop or restart services');
      if (!input.confirm)
        throw new BadRequestError(
          `${input.action} of ${input.services.join(', ')} on ${input.host} interrupts what they serve: repeat the call with confirm: true to do it`,
        );
      assertCarriable(input.services, 'services', 'xml');
      const result = await controlServices(
        ctx.shared.serviceability,
        ctx.vault,
        input.host,
        ACTIONS[input.action],
        input.services,
        ctx.signal,
      );
      ctx.log.info(
        { host: input.host, action: input.action, services: input.services },
        'services controlled through ControlCenterServices',
      );
      return structuredReply({ ...result });
    },
  });
}
