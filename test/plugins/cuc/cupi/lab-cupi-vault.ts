// A client's vault holding the lab Unity Connection's CUPI credential for `host`, pinned to its
// certificate and reached on loopback: what the CUPI tests call through CupiClients.
import type { ClientVault } from '../../../../kernel/sdk/index.ts';
import type { Lab } from '../../../../lab/index.ts';
import { labNode, labTlsPin } from '../../../../lab/index.ts';

export async function storeLabCupi(vault: ClientVault, lab: Lab, host: string): Promise<void> {
  const cuc = labNode(lab.info, 'cuc');
  const creds = cuc.credentials.cupi as { user: string; password: string };
  await vault.store('cuc', 'cupi', host, {
    username: creds.user,
    password: creds.password,
    options: { address: `127.0.0.1:${cuc.ports.https as number}`, ...labTlsPin(lab.info, cuc) },
  });
}
