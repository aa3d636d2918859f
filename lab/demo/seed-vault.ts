import bunyan from 'bunyan';
import { AuditLog } from '../../kernel/audit/audit-log.ts';
import { statePaths } from '../../kernel/paths.ts';
import { Vault, type CredentialKind, type Product } from '../../kernel/vault/index.ts';
import { labTlsPin } from '../tls/pins.ts';
import type { LabInfo } from '../types.ts';

/**
 * Stores the lab's demo credentials in the vault of each demo client, before the server starts, as an
 * operator would with the *_store_credentials tools. Each record is keyed by the node's name (the
 * cluster name) and says where to connect (`options.address`), because the lab runs every service of a
 * node on its own loopback port, and which certificate to pin: the node's own self-signed one
 * (`options.certPem`), or the lab CA (`options.caCertPem`) when the lab's nodes are CA-signed. Audited as
 * CREDENTIAL events. The nodes' SSH host keys are pinned too (TRUSTED events): the lab's own description
 * is the out-of-band knowledge an operator checks a fingerprint against, and a non-admin client cannot
 * decide. Clients in `firstContact` get no HTTPS pin: their first call to a node meets its certificate
 * as a real user does, and an admin decides with `<product>_trust_certificate`.
 */
export async function seedVault(
  stateDir: string,
  clients: string[],
  lab: LabInfo,
  /** `subscribers`: the publishers' other nodes too (their serviceability APIs), as the demo wants. */
  o: { firstContact?: string[]; subscribers?: boolean } = {},
): Promise<number> {
  const paths = statePaths(stateDir);
  const audit = new AuditLog({ path: paths.auditLog, maxBytes: 5_242_880, maxFiles: 5 });
  const log = bunyan.createLogger({ name: 'demo', streams: [] });
  const vault = Vault.open(paths, audit, log);
  let stored = 0;
  try {
    for (const client of clients) {
      const view = vault.forClient(client, { ip: '127.0.0.1' });
      const nodes = o.subscribers ? lab.nodes.flatMap((n) => [n, ...(n.subscribers ?? [])]) : lab.nodes;
      for (const node of nodes) {
        const entries: { product: Product; kind: CredentialKind; port: number | undefined }[] = [];
        const c = node.credentials;
        if (node.product === 'phone') {
          if (c.phone) entries.push({ product: 'cucm', kind: 'phone', port: node.ports.http });
        } else {
          if (c.axl) entries.push({ product: node.product, kind: 'axl', port: node.ports.https });
          if (c.cupi) entries.push({ product: node.product, kind: 'cupi', port: node.ports.https });
          if (c.os) entries.push({ product: node.product, kind: 'os', port: node.ports.ssh });
        }
        for (const e of entries) {
          const cred = c[e.kind === 'cupi' ? 'cupi' : e.kind];
          if (!cred || e.port === undefined) continue;
          const pin = e.kind === 'os' || o.firstContact?.includes(client) ? {} : labTlsPin(lab, node);
          const secret = {
            username: cred.user,
            password: cred.password,
            options: { address: `${node.host}:${e.port}`, ...pin },
          };
          const existing = (await view.list(e.product)).some(
            (x) => x.kind === e.kind && x.host === node.name.toLowerCase(),
          );
          await (existing
            ? view.update(e.product, e.kind, node.name, secret)
            : view.store(e.product, e.kind, node.name, secret));
          stored++;
        }
        if (c.os && node.sshHostKeyFingerprint && node.product !== 'phone')
          view.hostKeys.pinVerified(node.product, node.name, node.sshHostKeyFingerprint);
      }
    }
  } finally {
    await audit.close();
  }
  return stored;
}
