import { NotFoundError, structuredReply, toolsFor, z, type Product } from '../../../kernel/sdk/index.ts';
import { assertCarriable } from '../node/wire-text.ts';
import type { ServiceInfo, ServiceSpecification } from '../serviceability/control-center/answers.ts';
import { clusterStatus } from '../serviceability/control-center/service.ts';
import { failIfNoneAnswered, type NodeFailure } from '../node/node-failures.ts';
import type { ServiceabilityState } from '../serviceability/state.ts';
import { CLUSTER_LISTING_OPERATION, clusterTargets } from '../serviceability/cluster.ts';
import { hostField } from './credential-input.ts';
import { PRODUCT_LABEL } from './product-labels.ts';
import { serviceStatusOutput } from './service-output.ts';

export const serviceName = z.string().trim().min(1).max(128);

const STATES = {
  any: undefined,
  started: ['Started'],
  not_started: ['Stopped', 'Starting', 'Stopping', 'Unknown'],
};

/** `<product>_service_status`: every service's state on one node or several (ControlCenterServices). */
export function serviceStatusTool(product: Product) {
  return toolsFor<ServiceabilityState>()({
    name: 'service_status',
    title: `${PRODUCT_LABEL[product]} service status (Control Center)`,
    description: `The state of the node's services as Cisco Unified Serviceability's Control Center reports it (ControlCenterServices soapGetServiceStatus): Started or Stopped, with the node's reason (Service Not Activated, Commanded Out of Service), start time and uptime. The API answers for the node it runs on only, so each node is asked at its own address: all_nodes reads every node of the host's cluster as the cluster lists it (${CLUSTER_LISTING_OPERATION[product]}, with the host's stored credential) for which you stored this product's credential under the name the cluster gives it (the others are listed in failed, never contacted), nodes names more hosts; a node that cannot be read is listed in failed with its error code while the others answer. services narrows to some names; with_specifications adds each service's type, group and whether it can be started and stopped (soapGetStaticServiceList). Each node allows a few requests a minute, shared with the other serviceability tools.`,
    input: {
      host: hostField,
      all_nodes: z
        .boolean()
        .default(false)
        .describe(
          `Every node of the cluster, as it lists itself (${CLUSTER_LISTING_OPERATION[product]}), each at its own address`,
        ),
      nodes: z
        .array(hostField)
        .max(32)
        .default([])
        .describe('Other nodes of the cluster to read too (hosts with stored credentials)'),
      services: z
        .array(serviceName)
        .max(100)
        .default([])
        .describe('Service names, e.g. ["Cisco CallManager", "Cisco Tftp"]; [] = every service'),
      state: z.enum(['any', 'started', 'not_started']).default('any').describe('Only services in this state'),
      with_specifications: z
        .boolean()
        .default(false)
        .describe('Add type, group and deployable (one more request per node)'),
    },
    output: serviceStatusOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    access: { allowlist: 'serviceability', subject: () => 'soapGetServiceStatus' },
    service: 'serviceability',
    summary: (i) => ({
      operation: 'soapGetServiceStatus',
      detail:
        `nodes=${[i.host, ...i.nodes].slice(0, 8).join(', ')}` +
        (i.services.length > 0 ? ` services=${i.services.slice(0, 8).join(', ')}` : '') +
        (i.with_specifications ? ' +soapGetStaticServiceList' : '') +
        (i.all_nodes ? ` +${CLUSTER_LISTING_OPERATION[product]} (all nodes)` : ''),
    }),
    async handler(input, ctx) {
      assertCarriable(input.services, 'services', 'xml');
      const { hosts, unreached } = await targets(ctx, product, input);
      const { answered, failed: refused } = await clusterStatus(
        ctx.shared.serviceability,
        ctx.vault,
        hosts,
        input.services,
        input.with_specifications,
        ctx.signal,
      );
      const failed = [...refused, ...unreached];
      failIfNoneAnswered(answered, failed);
      if (input.services.length > 0) {
        const known = new Set(answered.flatMap((n) => n.services.map((s) => s.name.toLowerCase())));
        const missing = input.services.filter((s) => !known.has(s.toLowerCase()));
        if (missing.length === input.services.length)
          throw new NotFoundError(
            `no node read (${answered.map((n) => n.node).join(', ')}) has a service named ${missing.map((m) => `"${m}"`).join(', ')}`,
          );
      }
      const wanted = STATES[input.state];
      return structuredReply({
        complete: failed.length === 0,
        nodes: answered.map((n) => ({
          node: n.node,
          counts: {
            started: n.services.filter((s) => s.status === 'Started').length,
            stopped: n.services.filter((s) => s.status === 'Stopped').length,
            other: n.services.filter((s) => s.status !== 'Started' && s.status !== 'Stopped').length,
          },
          services: n.services
            .filter((s) => !wanted || (wanted as string[]).includes(s.status))
            .map((s) => withSpecification(s, n.specifications)),
          unknown_services: n.unknown,
          rate_limit: n.rate_limit,
        })),
        failed: failed.map(({ node, error }) => ({ node, error })),
      });
    },
  });
}

type Input = { host: string; nodes: string[]; all_nodes: boolean };

/**
 * The hosts to ask: the one given, the nodes named, and with all_nodes every node of the host's cluster
 * the caller stored a credential for (cluster.ts; the others are reported, never contacted).
 */
async function targets(
  ctx: { shared: ServiceabilityState; vault: Parameters<typeof clusterTargets>[1]; signal: AbortSignal },
  product: Product,
  input: Input,
): Promise<{ hosts: string[]; unreached: NodeFailure[] }> {
  const named = [input.host, ...input.nodes];
  const unreached: NodeFailure[] = [];
  if (input.all_nodes) {
    const cluster = await clusterTargets(ctx.shared.clusterNodes, ctx.vault, product, input.host, ctx.signal);
    named.push(...cluster.reached.map((t) => t.credentialHost));
    unreached.push(...cluster.unreached);
  }
  const hosts = [...new Map(named.map((h) => [h.toLowerCase(), h])).values()];
  return { hosts: hosts.slice(0, MAX_NODES), unreached };
}

/** Nodes read at most in one call (a CUCM cluster has at most about twenty). */
const MAX_NODES = 32;

function withSpecification(
  s: ServiceInfo,
  specs: ServiceSpecification[] | undefined,
): Record<string, unknown> {
  const spec = specs?.find((p) => p.name.toLowerCase() === s.name.toLowerCase());
  if (!spec) return { ...s };
  return {
    ...s,
    type: spec.type,
    deployable: spec.deployable,
    group: spec.group,
    dependent_services: spec.dependent_services,
  };
}
