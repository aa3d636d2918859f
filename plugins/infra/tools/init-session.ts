import { defineTool, structuredReply } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'init_session',
  title: 'Initialise the session',
  description:
    'Mandatory first call. Returns the full catalogue of tools (with whether each is permitted to you), prompts and docs, and your effective RBAC matrix: products, tool permissions, allowlists and rate limits.',
  input: {},
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    const catalogue = ctx.kernel.catalogue(ctx.caller);
    return structuredReply({
      server: { name: ctx.kernel.serverName, version: ctx.kernel.version },
      client: { name: ctx.caller.name, profile: ctx.caller.profile },
      tools: catalogue.tools,
      prompts: catalogue.prompts,
      docs: catalogue.docs,
      permissions: ctx.kernel.permissions(ctx.caller),
    });
  },
});
