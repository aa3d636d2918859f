import { defineTool, structuredReply } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'list_prompts',
  title: 'List prompts',
  description:
    'The guided workflows (prompts) available to you, filtered by your product scope and profile, with their arguments.',
  input: {},
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    return structuredReply({ prompts: ctx.kernel.catalogue(ctx.caller).prompts });
  },
});
