import { defineTool, textReply } from '../../../../../kernel/sdk/index.ts';
import { LOCAL_READ_ONLY } from './annotations.ts';

const STEP_MS = 50;

/** tools-call-with-progress: 0, 50 and 100 of 100, with a pause between. */
export default defineTool({
  name: 'tool_with_progress',
  title: 'Progress (conformance)',
  description: 'Reports progress three times while it runs. MCP conformance fixture.',
  input: {},
  annotations: LOCAL_READ_ONLY,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await new Promise((resolve) => setTimeout(resolve, STEP_MS));
      await ctx.progress(progress, 100);
    }
    return textReply('Progress test completed.');
  },
});
