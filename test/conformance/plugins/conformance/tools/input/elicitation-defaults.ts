import { inputRequired, textReply } from '../../../../../../kernel/sdk/index.ts';
import { askUserWith, elicitation } from '../../input-requests.ts';
import { inputTool } from './define-input-tool.ts';

/** elicitation-sep1034-defaults: a form with a default for every primitive type. */
export default inputTool({
  name: 'elicitation_sep1034_defaults',
  title: 'Elicitation with defaults',
  description: 'Asks the user a form whose every field has a default (SEP-1034).',
  async handler(_input, ctx) {
    const answer = elicitation(ctx.input.responses.form);
    if (!answer)
      return inputRequired({
        form: askUserWith('Please review and update the form fields with defaults', {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          required: [],
        }),
      });
    return textReply(
      `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
    );
  },
});
