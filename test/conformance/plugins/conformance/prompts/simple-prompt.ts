import { definePrompt } from '../../../../../kernel/sdk/index.ts';

/** prompts-get-simple. */
export default definePrompt({
  name: 'test_simple_prompt',
  title: 'Simple prompt (conformance)',
  description: 'One text message, no arguments. MCP conformance fixture.',
  arguments: [],
  render: () => [{ role: 'user', text: 'This is a simple prompt for testing.' }],
});
