// Where a credential about to be stored will make the server connect, so the node address policy can
// refuse it at once instead of at first use: the `address` option, else the host, with the kind's
// standard port. The rules are the kernel's (the operator's `credentials` command checks the same).
import { credentialTarget, type CredentialSecret, type ToolContext } from '../../../kernel/sdk/index.ts';
import type { CredentialKindName } from '../tools/product-labels.ts';

/** Refuses (NODE_ADDRESS_DENIED) a credential whose address the node address policy already refuses. */
export async function checkCredentialTarget(
  ctx: ToolContext,
  kind: CredentialKindName,
  host: string,
  secret: CredentialSecret,
): Promise<void> {
  const target = credentialTarget(kind, host, secret);
  if (target) await ctx.kernel.nodeAddresses.checkStorable(target.host, target.port);
}
