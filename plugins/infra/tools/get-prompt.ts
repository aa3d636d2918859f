import { defineTool, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'get_prompt',
  title: 'Get a prompt',
  description:
    'The full content of a prompt by name, rendered with its arguments (the same as the native prompts/get).',
  input: {
    name: z.string().min(1).max(64).describe('Prompt name, e.g. cucm_security_audit'),
    arguments: z.record(z.string().max(64), z.string().max(1024)).default({}).describe('Prompt arguments'),
  },
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(input, ctx) {
    const rendered = await ctx.kernel.renderPrompt(ctx.caller, input.name, input.arguments);
    return structuredReply({ name: input.name, ...rendered });
  },
});
