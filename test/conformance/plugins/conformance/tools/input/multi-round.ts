import { inputRequired, textReply } from '../../../../../../kernel/sdk/index.ts';
import { accepted, askUser } from '../../input-requests.ts';
import { inputTool } from './define-input-tool.ts';

/** input-required-result-multi-round: two questions in two rounds, the state carrying the first answer. */
export default inputTool({
  name: 'input_required_result_multi_round',
  title: 'Two rounds (MRTR)',
  description: 'Asks for a name, then a colour, carrying the name in its state.',
  async handler(_input, ctx) {
    const step1 = () => inputRequired({ step1: askUser('Step 1: What is your name?', ['name']) }, 'step1');
    const state = ctx.input.state;
    if (state === undefined) return step1();
    if (state === 'step1') {
      const name = accepted(ctx.input.responses.step1)?.name;
      if (typeof name !== 'string') return step1();
      return inputRequired(
        { step2: askUser('Step 2: What is your favorite color?', ['color']) },
        JSON.stringify({ name }),
      );
    }
    const { name } = JSON.parse(state) as { name: string };
    const color = accepted(ctx.input.responses.step2)?.color;
    if (typeof color !== 'string')
      return inputRequired({ step2: askUser('Step 2: What is your favorite color?', ['color']) }, state);
    return textReply(`${name} likes ${color}.`);
  },
});
