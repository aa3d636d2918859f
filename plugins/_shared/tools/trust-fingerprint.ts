import { defineTool, structuredReply, z, type Product } from '../../../kernel/sdk/index.ts';
import { hostField } from './credential-input.ts';
import { A_PRODUCT } from './product-labels.ts';
import { hostKeyOutput } from './output-shapes.ts';

/** `<product>_os_trust_fingerprint`: pins or rejects the SSH host key a node presented. */
export function trustFingerprintTool(product: Product) {
  return defineTool({
    name: 'os_trust_fingerprint',
    title: `Trust or reject ${A_PRODUCT[product]} SSH host key`,
    description: `Decides on the SSH host key ${A_PRODUCT[product]} node presented: "trust" pins it (later connections must present exactly it), "reject" refuses it. The fingerprint must be the SHA256:... one the refused connection reported; compare it first with the node's key taken out of band (ssh-keyscan from a trusted host, ssh-keygen -lf).`,
    input: {
      host: hostField,
      fingerprint: z
        .string()
        .min(1)
        .max(128)
        .describe('SHA256:<base64> fingerprint, as the refusal showed it'),
      action: z.enum(['trust', 'reject']).describe('trust pins the key; reject refuses it'),
    },
    output: hostKeyOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    access: { minProfile: 'admin' },
    service: 'default',
    async handler(input, ctx) {
      const status = ctx.vault.hostKeys.decide(product, input.host, input.action, input.fingerprint);
      return structuredReply({ ...status });
    },
  });
}
