import { defineTool, structuredReply } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'list_docs',
  title: 'List docs',
  description:
    'The reference documents and MCP resources available to you (filtered by product scope), with their URIs.',
  input: {},
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    return structuredReply({ docs: ctx.kernel.catalogue(ctx.caller).docs });
  },
});
