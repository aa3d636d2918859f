import { inputRequired, textReply } from '../../../../../../kernel/sdk/index.ts';
import { askUserWith, elicitation } from '../../input-requests.ts';
import { inputTool } from './define-input-tool.ts';

/** elicitation-sep1330-enums: the five enum forms of SEP-1330. */
export default inputTool({
  name: 'elicitation_sep1330_enums',
  title: 'Elicitation with enums',
  description: 'Asks the user a form with every enum variant (SEP-1330).',
  async handler(_input, ctx) {
    const answer = elicitation(ctx.input.responses.form);
    if (!answer)
      return inputRequired({
        form: askUserWith('Please select options from the enum fields', {
          type: 'object',
          properties: {
            untitledSingle: {
              type: 'string',
              description: 'Select one option',
              enum: ['option1', 'option2', 'option3'],
            },
            titledSingle: {
              type: 'string',
              description: 'Select one option with titles',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Select one option (legacy)',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Select multiple options',
              minItems: 1,
              maxItems: 3,
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Select multiple options with titles',
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
          required: [],
        }),
      });
    return textReply(
      `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
    );
  },
});
