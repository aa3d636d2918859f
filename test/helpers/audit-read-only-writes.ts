// The writes each product's read-only audit test attempts with the audit's credentials: one per family
// the product has (AXL or CUPI, the CLI, a Control Center action). Each is one the admin profile may
// make, so only the credential's read_only attribute stands in the way.
import type { ProductStack } from './product-stack.ts';
import type { WriteAttempt } from './audit-read-only.ts';

/** A platform service every lab node runs. */
const SERVICE = 'Cisco Certificate Expiry Monitor';

export function cliRestart(product: 'cucm' | 'imp' | 'cuc'): WriteAttempt {
  return {
    name: 'a `utils service restart` over the CLI',
    tool: `${product}_os_run_command`,
    args: () => ({ command: `utils service restart ${SERVICE}` }),
    reached: (s) => s.lab.state.log.commands.some((c) => c.command.startsWith('utils service restart')),
  };
}

export function serviceRestart(product: 'cucm' | 'imp' | 'cuc'): WriteAttempt {
  return {
    name: 'a Control Center restart',
    tool: `${product}_service_control`,
    args: () => ({ action: 'restart', services: [SERVICE] }),
    reached: (s) =>
      s.lab.state.log.requests.some((q) => (q.operation ?? '').endsWith('soapDoControlServices')),
  };
}

export function axlAdd(
  product: 'cucm' | 'imp',
  operation: string,
  args: Record<string, unknown>,
): WriteAttempt {
  return {
    name: `an AXL ${operation}`,
    tool: `${product}_axl_call`,
    args: () => ({ operation, args }),
    reached: (s: ProductStack) => s.lab.state.log.requests.some((q) => q.operation === operation),
  };
}
