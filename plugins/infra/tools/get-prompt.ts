import { defineTool, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'get_prompt',
  title: 'Get a prompt',
  description: 'A prompt by name, rendered with its arguments (as prompts/get).',
  input: {
    name: z.string().min(1).max(64).describe('Prompt name, e.g. cucm_security_audit'),
    arguments: z.record(z.string().max(64), z.string().max(1024)).default({}),
  },
  output: {
    name: z.string(),
    description: z.string(),
    messages: z.array(
      z.object({
        role: z.enum(['user', 'assistant']),
        content: z.object({ type: z.literal('text'), text: z.string() }),
      }),
    ),
  },
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(input, ctx) {
    const rendered = await ctx.kernel.renderPrompt(ctx.caller, input.name, input.arguments);
    return structuredReply({ name: input.name, ...rendered });
  },
});
