import { defineTool, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'list_prompts',
  title: 'List prompts',
  description: 'The prompts (guided workflows) available to you, with their arguments.',
  input: {},
  output: {
    prompts: z.array(
      z.object({
        name: z.string(),
        title: z.string(),
        description: z.string(),
        module: z.string(),
        arguments: z.array(z.object({ name: z.string(), description: z.string(), required: z.boolean() })),
      }),
    ),
  },
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    return structuredReply({ prompts: ctx.kernel.catalogue(ctx.caller).prompts });
  },
});
