// The AXL and SSH parts of the *_check_connectivity tools, shared by CUCM and IM&P (SSH also by CUC).
import type { Product } from '../../../kernel/sdk/index.ts';
import type { ConnectivityProbe } from './check-connectivity.ts';
import type { AxlState, VosState } from './plugin-state.ts';

/** AXL: the full path (credential, TLS, version negotiation, schema, getCCMVersion). */
export const axlProbe: ConnectivityProbe<AxlState> = {
  service: 'axl',
  run: (host, ctx) =>
    ctx.shared.axl.with(
      ctx.vault,
      host,
      async ({ client }) => ({ version: await client.getVersion(), axl_version: client.version }),
      ctx.signal,
    ),
};

/** SSH: logs in to the VOS CLI (or finds the pooled shell) and reports the login time. */
export function sshProbe(product: Product): ConnectivityProbe<VosState> {
  return {
    service: 'ssh',
    run: async (host, ctx) => {
      const r = await ctx.shared.shells.check(ctx.vault, product, host, ctx.signal);
      return { reused_shell: r.reusedShell, login_ms: r.loginMs };
    },
  };
}
