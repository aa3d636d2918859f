import { defineTool, structuredReply } from '../../../kernel/sdk/index.ts';
import { checkCredentialTarget } from '../node/credential-target.ts';
import { credentialInput, phoneCredentialInput, toSecret } from './credential-input.ts';
import { KIND_LABEL, PRODUCT_LABEL, kindPrefix, type CredentialToolSpec } from './product-labels.ts';

/** `<product>_[<kind>_]store_credentials`: adds a credential to the caller's own vault. */
export function storeCredentialsTool(spec: CredentialToolSpec) {
  const what = `${KIND_LABEL[spec.kind]} credentials`;
  return defineTool({
    name: `${kindPrefix(spec.kind, spec.primary)}store_credentials`,
    title: `Store ${PRODUCT_LABEL[spec.product]} ${what}`,
    description: `Stores ${what} for a ${PRODUCT_LABEL[spec.product]} host in your own encrypted vault. Fails if some are already stored for that host (use the update tool). Optional: address (host:port where the service listens), ca_cert_pem or cert_pem to verify the node's TLS. The password is never returned.`,
    // The phone kind adds its scheme; the handler's input is the same shape either way.
    input: (spec.kind === 'phone' ? phoneCredentialInput : credentialInput) as typeof phoneCredentialInput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    access: { minProfile: 'operator' },
    service: 'default',
    async handler(input, ctx) {
      const secret = toSecret(input);
      await checkCredentialTarget(ctx, spec.kind, input.host, secret);
      const entry = await ctx.vault.store(spec.product, spec.kind, input.host, secret);
      return structuredReply({ stored: true, ...entry });
    },
  });
}
