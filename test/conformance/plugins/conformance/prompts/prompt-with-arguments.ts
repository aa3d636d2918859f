import { definePrompt } from '../../../../../kernel/sdk/index.ts';

const SUGGESTIONS = ['paris', 'park', 'party', 'test', 'testing'];

/** prompts-get-with-args, and completion-complete (its arg1 completes). */
export default definePrompt({
  name: 'test_prompt_with_arguments',
  title: 'Prompt with arguments (conformance)',
  description: 'Substitutes its two arguments into its message. MCP conformance fixture.',
  arguments: [
    {
      name: 'arg1',
      description: 'First test argument',
      required: true,
      complete: (prefix) => SUGGESTIONS.filter((s) => s.startsWith(prefix)),
    },
    { name: 'arg2', description: 'Second test argument', required: true },
  ],
  render: (args) => [
    { role: 'user', text: `Prompt with arguments: arg1='${args.arg1 ?? ''}', arg2='${args.arg2 ?? ''}'` },
  ],
});
