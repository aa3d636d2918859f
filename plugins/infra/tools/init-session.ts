import { defineTool, structuredReply, type CatalogueTool, z } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

/** A purpose is one line: a session's first call pays for every character of it, for every tool. */
const PURPOSE_MAX = 100;

/** The first sentence of a description, cut at PURPOSE_MAX characters. */
export function purposeOf(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  const sentence = end === -1 ? flat : flat.slice(0, end + 1);
  return sentence.length <= PURPOSE_MAX ? sentence : `${sentence.slice(0, PURPOSE_MAX - 1).trimEnd()}…`;
}

function compactTool(t: CatalogueTool): { name: string; purpose: string; permitted: boolean } {
  return { name: t.name, purpose: purposeOf(t.description), permitted: t.permitted };
}

export default defineTool({
  name: 'init_session',
  title: 'Initialise the session',
  description:
    'Recommended first call: every tool with a one-line purpose and whether you may call it, prompt names, and your RBAC matrix. Input schemas are in tools/list.',
  input: {},
  output: {
    server: z.object({ name: z.string(), version: z.string() }),
    client: z.object({ name: z.string(), profile: z.string() }),
    tools: z.array(z.object({ name: z.string(), purpose: z.string(), permitted: z.boolean() })),
    prompts: z.array(z.string()),
    docCount: z.number(),
    permissions: z.looseObject({ client: z.string(), profile: z.string(), products: z.array(z.string()) }),
  },
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    const catalogue = ctx.kernel.catalogue(ctx.caller);
    // The per-tool `permitted` flag already says what the matrix's allowed/denied lists would repeat.
    const { tools: _byName, ...matrix } = ctx.kernel.permissions(ctx.caller);
    const permissions = { ...matrix, rateLimits: await ctx.kernel.rateLimits(ctx.caller) };
    const tools = catalogue.tools.map(compactTool);
    const permitted = tools.filter((t) => t.permitted).length;
    const server = { name: ctx.kernel.serverName, version: ctx.kernel.version };
    const summary = [
      `${server.name} ${server.version}; client ${ctx.caller.name}, profile ${permissions.profile}, products ${permissions.products.join(', ') || 'none'}.`,
      `${tools.length} tools (${permitted} permitted to you), ${catalogue.prompts.length} prompts, ${catalogue.docs.length} docs (infra_list_docs).`,
      'The catalogue and the RBAC matrix are in structuredContent; input schemas are in tools/list.',
    ].join('\n');
    return {
      ...structuredReply({
        server,
        client: { name: ctx.caller.name, profile: ctx.caller.profile },
        tools,
        prompts: catalogue.prompts.map((p) => p.name),
        // Doc names repeat across products (`platform`, `tls`): infra_list_docs gives them with their URIs.
        docCount: catalogue.docs.length,
        permissions,
      }),
      textSummary: summary,
    };
  },
});
