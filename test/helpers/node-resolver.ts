// Name resolution for the test kernels' connections to managed nodes: answers from a fixed table,
// never from the network (tests send nothing off the machine, DNS queries included).
import type { NodeResolver } from '../../kernel/net/node-address-policy.ts';

/** `localhost` is 127.0.0.1; `names` adds others (a name to its addresses); any other name: ENOTFOUND. */
export function tableResolver(names: Record<string, string[]> = {}): NodeResolver {
  const table: Record<string, string[]> = { localhost: ['127.0.0.1'], ...names };
  return (host) => {
    const found = table[host.toLowerCase()];
    if (!found?.length)
      return Promise.reject(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), {
          code: 'ENOTFOUND',
          syscall: 'getaddrinfo',
          hostname: host,
        }),
      );
    return Promise.resolve(found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
}
