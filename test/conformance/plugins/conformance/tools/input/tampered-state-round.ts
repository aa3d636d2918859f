import { inputRequired, textReply } from '../../../../../../kernel/sdk/index.ts';
import { accepted, askUserWith } from '../../input-requests.ts';
import { inputTool } from './define-input-tool.ts';

/**
 * input-required-result-tampered-state: returns state the kernel seals; an altered state never reaches
 * this handler (the kernel refuses it).
 */
export default inputTool({
  name: 'input_required_result_tampered_state',
  title: 'Sealed state (MRTR)',
  description: 'Returns state for its next round; the kernel refuses it altered.',
  async handler(_input, ctx) {
    if (ctx.input.state !== 'sealed' || accepted(ctx.input.responses.confirm) === undefined)
      return inputRequired(
        {
          confirm: askUserWith('Confirm to continue', {
            type: 'object',
            properties: { ok: { type: 'boolean' } },
            required: ['ok'],
          }),
        },
        'sealed',
      );
    return textReply('state verified');
  },
});
