// Where a credential about to be stored will make the server connect, so the node address policy can
// refuse it at once instead of at first use: the `address` option, else the host, with the kind's
// standard port. The same parsing the connections use (endpointOf, sshAddress).
import type { CredentialSecret, ToolContext } from '../../../kernel/sdk/index.ts';
import type { CredentialKindName } from '../tools/product-labels.ts';
import { sshAddress } from '../vos/ssh-connect.ts';
import { PORTS, splitAddress } from './endpoint.ts';

/** host and port, or undefined when the text is no address (the vault then refuses the host itself). */
export function credentialTarget(
  kind: CredentialKindName,
  host: string,
  secret: CredentialSecret,
): { host: string; port: number } | undefined {
  const o = secret.options ?? {};
  if (kind === 'os') {
    try {
      return sshAddress(host, o);
    } catch {
      return undefined;
    }
  }
  const address = typeof o.address === 'string' && o.address.trim() !== '' ? o.address.trim() : host;
  const parts = splitAddress(address);
  if (!parts) return undefined;
  const standard =
    kind === 'phone' ? (o.scheme === 'https' ? PORTS.phoneHttps : PORTS.phoneHttp) : PORTS.https;
  return { host: parts.host, port: parts.port ?? standard };
}

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
