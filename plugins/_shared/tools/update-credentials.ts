import { defineTool, structuredReply } from '../../../kernel/sdk/index.ts';
import { checkCredentialTarget } from '../node/credential-target.ts';
import { credentialInput, phoneCredentialInput, toSecret } from './credential-input.ts';
import { checkPasswordArgument, credentialThroughPage } from './credential-page-flow.ts';
import {
  KIND_LABEL,
  A_PRODUCT,
  PRODUCT_LABEL,
  kindPrefix,
  type CredentialToolSpec,
} from './product-labels.ts';
import { updatedOutput } from './output-shapes.ts';

/** `<product>_[<kind>_]update_credentials`: replaces a credential in the caller's own vault. */
export function updateCredentialsTool(spec: CredentialToolSpec) {
  const what = `${KIND_LABEL[spec.kind]} credentials`;
  const name = `${kindPrefix(spec.kind, spec.primary)}update_credentials`;
  return defineTool({
    name,
    title: `Update ${PRODUCT_LABEL[spec.product]} ${what}`,
    description: `Replaces the ${what} stored for ${A_PRODUCT[spec.product]} host (all fields: username, password, address and TLS pins). Fails if none are stored. Open connections made with the old login are not reused. Omit password: a person enters it on the server's one-time page (URL elicitation, or the link returned).`,
    // The phone kind adds its scheme; the handler's input is the same shape either way.
    input: (spec.kind === 'phone' ? phoneCredentialInput : credentialInput) as typeof phoneCredentialInput,
    output: updatedOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    access: { minProfile: 'operator' },
    service: 'default',
    async handler(input, ctx) {
      checkPasswordArgument(input.password, ctx);
      const { password, ...rest } = input;
      if (password === undefined)
        return credentialThroughPage(spec, `${spec.product}_${name}`, 'update', rest, ctx);
      const secret = toSecret({ ...rest, password });
      await checkCredentialTarget(ctx, spec.kind, input.host, secret);
      const entry = await ctx.vault.update(spec.product, spec.kind, input.host, secret);
      return structuredReply({ updated: true, ...entry });
    },
  });
}
