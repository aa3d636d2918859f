// The undo of a journalled service start or stop (service-control-adapter.ts wrote it): the opposite
// action on the same services. A restart has none: it leaves each service as it found it, and what it
// interrupted cannot be given back.
import type { ChangeRecord, ClientVault, NodeRequests } from '../../../kernel/sdk/index.ts';
import { NoInverseError, NotFoundError } from '../../../kernel/sdk/index.ts';
import type { ControlType } from '../serviceability/control-center/api.ts';
import type { ServiceabilityClient } from '../serviceability/client.ts';
import { controlServices, nodeStatus } from '../serviceability/control-center/service.ts';
import { assertUnchangedSince } from './undo-checks.ts';
import type { UndoSource } from './undo-plan.ts';
import type { Plain } from './values.ts';
import { isRecord } from './values.ts';

const OPPOSITE: Partial<Record<string, ControlType>> = { Start: 'Stop', Stop: 'Start' };

export interface ServiceUndoRequest {
  operation: 'soapDoControlServices';
  action: ControlType;
  services: string[];
}

/** Checks the record before anything is read: only a start or a stop has an inverse. */
export function serviceInverse(record: ChangeRecord): ServiceUndoRequest {
  const req = isRecord(record.request as Plain) ? (record.request as Record<string, unknown>) : {};
  const action = typeof req.action === 'string' ? req.action : '';
  const services = Array.isArray(req.services)
    ? req.services.filter((s): s is string => typeof s === 'string')
    : [];
  if (action === 'Restart')
    throw new NoInverseError(
      `change ${record.id} restarted ${services.join(', ')}: a restart has no inverse (the services run as before it; what it interrupted cannot be given back)`,
    );
  const opposite = OPPOSITE[action];
  if (!opposite || services.length === 0)
    throw new NoInverseError(`change ${record.id} (${record.operation}): no inverse is known for it`);
  return { operation: 'soapDoControlServices', action: opposite, services };
}

export function serviceUndoSource(
  client: ServiceabilityClient,
  vault: ClientVault,
  record: ChangeRecord,
  node: Pick<NodeRequests, 'permit'>,
  signal?: AbortSignal,
): UndoSource<ServiceUndoRequest> {
  const request = serviceInverse(record);
  const states = async (): Promise<Plain> => {
    const r = await nodeStatus(client, vault, record.host, request.services, false, signal);
    if (r.unknown.length > 0)
      throw new NotFoundError(
        `${record.host} has no service named ${r.unknown.map((m) => `"${m}"`).join(', ')}`,
      );
    return Object.fromEntries(r.services.map((s) => [s.name, s.status]));
  };
  return {
    async plan() {
      const current = await states();
      assertUnchangedSince(record, current);
      node.permit('serviceability', request.operation);
      return {
        kind: 'service_control',
        operation: `undo ${record.operation}`,
        object: record.object,
        current,
        restores: (record.before ?? null) as Plain | null,
        requests: [request],
        losses: [],
      };
    },
    send: () => controlServices(client, vault, record.host, request.action, request.services, signal),
    readBack: () => states(),
  };
}
