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
import { storedOutput } from './output-shapes.ts';

/** `<product>_[<kind>_]store_credentials`: adds a credential to the caller's own vault. */
export function storeCredentialsTool(spec: CredentialToolSpec) {
  const what = `${KIND_LABEL[spec.kind]} credentials`;
  const name = `${kindPrefix(spec.kind, spec.primary)}store_credentials`;
  return defineTool({
    name,
    title: `Store ${PRODUCT_LABEL[spec.product]} ${what}`,
    description: `Stores ${what} for ${A_PRODUCT[spec.product]} host in your own encrypted vault. Fails if some are already stored for that host (use the update tool). Optional: address (host:port where the service listens), ca_cert_pem or cert_pem to verify the node's TLS. The password is never returned. Omit password: a person enters it on the server's one-time page (URL elicitation, or the link returned).`,
    // The phone kind adds its scheme; the handler's input is the same shape either way.
    input: (spec.kind === 'phone' ? phoneCredentialInput : credentialInput) as typeof phoneCredentialInput,
    output: storedOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    access: { minProfile: 'operator' },
    service: 'default',
    async handler(input, ctx) {
      checkPasswordArgument(input.password, ctx);
      const { password, ...rest } = input;
      if (password === undefined)
        return credentialThroughPage(spec, `${spec.product}_${name}`, 'store', rest, ctx);
      const secret = toSecret({ ...rest, password });
      await checkCredentialTarget(ctx, spec.kind, input.host, secret);
      const entry = await ctx.vault.store(spec.product, spec.kind, input.host, secret);
      return structuredReply({ stored: true, ...entry });
    },
  });
}
