import { inputRequired, textReply } from '../../../../../../kernel/sdk/index.ts';
import { accepted, askUser } from '../../input-requests.ts';
import { inputTool } from './define-input-tool.ts';

/** server-stateless: an elicitation that travels in the result, never as a request on the stream. */
export default inputTool({
  name: 'streaming_elicitation',
  title: 'Elicitation in the result (MRTR)',
  description: 'Asks the user through an input-required result.',
  async handler(_input, ctx) {
    const answer = accepted(ctx.input.responses.answer)?.answer;
    if (typeof answer !== 'string') return inputRequired({ answer: askUser('Anything to add?', ['answer']) });
    return textReply(`Noted: ${answer}`);
  },
});
