import { inputRequired, textReply } from '../../../../../../kernel/sdk/index.ts';
import { accepted, askUserWith } from '../../input-requests.ts';
import { inputTool } from './define-input-tool.ts';

const AWAITING = 'awaiting-confirmation';

/** input-required-result-request-state: completes only with the state its first round returned. */
export default inputTool({
  name: 'input_required_result_request_state',
  title: 'Confirm with state (MRTR)',
  description: 'Asks for a confirmation and keeps state between the two rounds.',
  async handler(_input, ctx) {
    const ok = accepted(ctx.input.responses.confirm)?.ok;
    if (ctx.input.state !== AWAITING || typeof ok !== 'boolean')
      return inputRequired(
        {
          confirm: askUserWith('Please confirm', {
            type: 'object',
            properties: { ok: { type: 'boolean' } },
            required: ['ok'],
          }),
        },
        AWAITING,
      );
    return textReply(`state-ok: confirmed=${ok}`);
  },
});
