import { defineTool, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'list_docs',
  title: 'List docs',
  description: 'The reference documents and resources available to you, with their URIs.',
  input: {},
  output: {
    docs: z.array(
      z.object({
        uri: z.string(),
        name: z.string(),
        title: z.string(),
        description: z.string(),
        module: z.string(),
        mimeType: z.string(),
        template: z.boolean(),
      }),
    ),
  },
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    return structuredReply({ docs: ctx.kernel.catalogue(ctx.caller).docs });
  },
});
