import {
  BadRequestError,
  structuredReply,
  toolsFor,
  z,
  type Product,
  type ToolContext,
} from '../../../kernel/sdk/index.ts';
import {
  CERT_LIST_OWN_COMMAND,
  CERT_LIST_TRUST_COMMAND,
  certOwnCommand,
  parseCertList,
  parseCertOwn,
  type CertListEntry,
} from '../vos/cert-output.ts';
import {
  NETWORK_CLUSTER_COMMAND,
  parseNetworkCluster,
  targetsFor,
  type NodeTarget,
} from '../vos/cluster-nodes.ts';
import { partFailure } from '../node/node-failures.ts';
import { cliReader, unrecognised } from './cli-sections.ts';
import { certListOutput } from './cert-list-output.ts';
import { hostField } from './credential-input.ts';
import type { VosState } from './plugin-state.ts';
import { PRODUCT_LABEL } from './product-labels.ts';

/** Own certificates detailed per node at most (a node has about ten; a hostile list is cut). */
const MAX_OWN = 48;
/** Nodes read at most in one call (a CUCM cluster has at most about twenty). */
const MAX_NODES = 32;
/** What may be typed after `show cert own`: the `<unit>/<file>` names the node lists, nothing else. */
const SAFE_NAME = /^[A-Za-z0-9._-]{1,64}\/[A-Za-z0-9._-]{1,96}$/;
const UNIT = /^[A-Za-z0-9._-]{1,64}$/;
const DAY_MS = 86_400_000;

type Ctx = ToolContext<VosState>;

/** What one node answered: the own list, `show cert own` per name (undefined: it failed), the trust list. */
export interface CertOutputs {
  list: string;
  details: Record<string, string | undefined>;
  trust?: string | undefined;
}

/** The names of `list` that `show cert own` is asked about: plain `<unit>/<file>` ones, `units` only. */
export function namesToDetail(list: string, units: string[] | undefined): string[] {
  return parseCertList(list)
    .filter((c) => !units || units.some((u) => u.toLowerCase() === c.unit.toLowerCase() || u === c.name))
    .map((c) => c.name)
    .filter((n) => SAFE_NAME.test(n))
    .slice(0, MAX_OWN);
}

/**
 * One node's part of the answer from its outputs, built the same way for a node's answers and for the
 * audits' tests of what such answers mean. A listed certificate that was not detailed (not asked, an
 * unsafe name, a failed command) keeps its list line with null fields.
 */
export function certNodeAnswer(
  out: CertOutputs,
  now: number,
  units?: string[],
): {
  own: Record<string, unknown>[];
  trust: CertListEntry[] | null;
  unrecognised: { command: string; excerpt: string }[];
} {
  const unparsed: { command: string; excerpt: string }[] = [];
  const listed = parseCertList(out.list);
  if (listed.length === 0) unparsed.push(unrecognised(CERT_LIST_OWN_COMMAND, out.list));
  const wanted = listed.filter(
    (c) => !units || units.some((u) => u.toLowerCase() === c.unit.toLowerCase() || u === c.name),
  );
  const own = wanted.slice(0, MAX_OWN).map((c) => {
    const text = out.details[c.name];
    const d = text === undefined ? undefined : parseCertOwn(text);
    if (text !== undefined && !d) unparsed.push(unrecognised(certOwnCommand(c.name), text));
    return {
      name: c.name,
      unit: c.unit,
      description: c.description,
      subject: d?.subject ?? null,
      issuer: d?.issuer ?? null,
      not_before: d?.notBefore?.toISOString() ?? null,
      not_after: d?.notAfter?.toISOString() ?? null,
      days_left: d?.notAfter ? Math.floor((d.notAfter.getTime() - now) / DAY_MS) : null,
      serial: d?.serial ?? null,
      key_type: d?.keyType ?? null,
      key_bits: d?.keyBits ?? null,
      signature_algorithm: d?.signatureAlgorithm ?? null,
      // A self-signed certificate's description says so even when the lines do not.
      self_signed: d?.selfSigned ?? (/self-signed/i.test(c.description) ? true : null),
      source: d?.source ?? 'none',
    };
  });
  const trust = out.trust === undefined ? null : parseCertList(out.trust);
  if (out.trust !== undefined && trust?.length === 0 && out.trust.trim() !== '')
    unparsed.push(unrecognised(CERT_LIST_TRUST_COMMAND, out.trust));
  return { own, trust, unrecognised: unparsed };
}

async function readNode(
  ctx: Ctx,
  product: Product,
  host: string,
  o: { units: string[] | undefined; trust: boolean },
): Promise<Record<string, unknown>> {
  const cli = cliReader(ctx.shared, ctx.vault, product, host, ctx.signal);
  const list = await cli.run(CERT_LIST_OWN_COMMAND);
  const details: Record<string, string | undefined> = {};
  for (const name of namesToDetail(list, o.units)) details[name] = await cli.tryRun(certOwnCommand(name));
  const trust = o.trust ? await cli.tryRun(CERT_LIST_TRUST_COMMAND) : undefined;
  return { ...certNodeAnswer({ list, details, trust }, ctx.kernel.now(), o.units), errors: cli.errors };
}

/**
 * `<product>_cert_list`: a node's own certificates (and optionally its trust store) as its CLI lists
 * them, each own certificate detailed; one node or every node of its cluster.
 */
export function certListTool(product: Product, trustTool: string) {
  return toolsFor<VosState>()({
    name: 'cert_list',
    title: `${PRODUCT_LABEL[product]} certificates`,
    description: `Lists the node's own certificates over its CLI (SSH) with, for each, subject, issuer, validity (not_after, days_left), serial, key type and size and whether it is self-signed; optionally the trust store (names and descriptions). all_nodes: every node the node lists in show network cluster for which you stored an OS credential of this product (the others are listed, not reached). Commands: show cert list own, show cert own <unit>/<file>.pem, show cert list trust, show network cluster (CLI reference, Show Commands). Only the To: validity line has a public source; the other labelled lines (Subject Name:, Issuer Name:, Serial Number:, Key:) have none, so when the node prints the certificate itself (PEM) its fields are read from it (source: pem). Needs the node's OS credential and an SSH allowlist that permits show cert list own. A new node's host key must first be trusted with ${trustTool}.`,
    input: {
      host: hostField,
      all_nodes: z
        .boolean()
        .default(false)
        .describe('Every node of the cluster (as this node lists it) instead of this one'),
      trust: z.boolean().default(false).describe('Also list the trust store (show cert list trust)'),
      units: z
        .array(z.string().min(1).max(170))
        .min(1)
        .max(32)
        .optional()
        .describe('Only these units (tomcat, CallManager...) or names (tomcat/tomcat.pem)'),
    },
    output: certListOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    // The profile's SSH allowlist decides on the list command; every later command (show cert own,
    // the trust list, show network cluster) is asked about too, by the shell pool, before it is sent.
    access: { allowlist: 'ssh', subject: () => CERT_LIST_OWN_COMMAND },
    service: 'ssh',
    summary: (i) => ({
      operation: CERT_LIST_OWN_COMMAND,
      detail: `then show cert own per certificate${i.trust ? `; ${CERT_LIST_TRUST_COMMAND}` : ''}${i.all_nodes ? `; ${NETWORK_CLUSTER_COMMAND}, every node` : ''}`,
    }),
    async handler(input, ctx) {
      const bad = input.units?.find((u) => !UNIT.test(u) && !SAFE_NAME.test(u));
      if (bad !== undefined)
        throw new BadRequestError(
          `units: "${bad.slice(0, 40)}" is not a certificate unit or <unit>/<file> name`,
        );
      const o = { units: input.units, trust: input.trust };
      if (!input.all_nodes) {
        const one = await readNode(ctx, product, input.host, o);
        return structuredReply({
          host: input.host,
          nodes: [
            { node: input.host, role: null, credential_host: input.host, reached: true, error: null, ...one },
          ],
        });
      }
      // The cluster list comes from the node given: its failure is the call's.
      const cli = cliReader(ctx.shared, ctx.vault, product, input.host, ctx.signal);
      const targets: NodeTarget[] = (
        await targetsFor(
          ctx.vault,
          product,
          input.host,
          parseNetworkCluster(await cli.run(NETWORK_CLUSTER_COMMAND)),
        )
      ).slice(0, MAX_NODES);
      const nodes: Record<string, unknown>[] = [];
      for (const t of targets) {
        const head = { node: t.node, role: t.role ?? null, credential_host: t.credentialHost ?? null };
        const empty = { own: [], trust: null, unrecognised: [], errors: [] };
        if (!t.credentialHost) {
          nodes.push({
            ...head,
            reached: false,
            error: {
              error: 'CredentialError',
              message: `no ${PRODUCT_LABEL[product]} OS credential names ${t.node}; store one to include it`,
            },
            ...empty,
          });
          continue;
        }
        try {
          nodes.push({
            ...head,
            reached: true,
            error: null,
            ...(await readNode(ctx, product, t.credentialHost, o)),
          });
        } catch (err) {
          // A command the caller may not run ends the call (DENIED): it is not one node's failure.
          const e = partFailure(err, ctx.signal);
          nodes.push({ ...head, reached: false, error: { error: e.code, message: e.message }, ...empty });
        }
      }
      return structuredReply({ host: input.host, nodes });
    },
  });
}
