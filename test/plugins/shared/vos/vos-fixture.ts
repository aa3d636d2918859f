// A real lab over SSH plus a real vault whose clients hold the lab's OS credential, for the VOS client tests.
import { startLab, labNode, type Lab, type LabOptions } from '../../../../lab/index.ts';
import type { ClientVault } from '../../../../kernel/vault/index.ts';
import { tempStateDir } from '../../../helpers/state-dir.ts';
import { vaultFixture, type VaultFixture } from '../../../kernel/vault/vault-fixture.ts';

/** The credential host the tests use for the lab's CUCM node; its SSH address is in `options.address`. */
export const CUCM_HOST = 'cucm-pub.lab.example';

export interface VosFixture {
  lab: Lab;
  vault: VaultFixture;
  sshPort: number;
  fingerprint: string;
  /** A client's vault view holding the lab's OS credential for CUCM_HOST (stored once per client). */
  client(name: string, password?: string): Promise<ClientVault>;
  /** Lets a client trust the lab's key the way `cucm_os_trust_fingerprint` would (after first contact). */
  trust(view: ClientVault): void;
  commands(command?: string): { command: string; outcome: string; user: string }[];
  stop(): Promise<void>;
}

export async function vosFixture(options: LabOptions = {}): Promise<VosFixture> {
  const state = tempStateDir('ucmcp-vos-lab-');
  const lab = await startLab({ stateDir: state.dir, loginDelayMs: 100, ...options });
  const vault = vaultFixture();
  const node = labNode(lab.info, 'cucm');
  const sshPort = node.ports.ssh as number;
  const os = node.credentials.os;
  if (!os || !node.sshHostKeyFingerprint) throw new Error('the lab CUCM node has no VOS CLI');
  const fingerprint = node.sshHostKeyFingerprint;
  const stored = new Set<string>();
  return {
    lab,
    vault,
    sshPort,
    fingerprint,
    async client(name, password = os.password) {
      const view = vault.vault.forClient(name);
      if (!stored.has(name)) {
        await view.store('cucm', 'os', CUCM_HOST, {
          username: os.user,
          password,
          options: { address: `127.0.0.1:${sshPort}` },
        });
        stored.add(name);
      }
      return view;
    },
    trust(view) {
      view.hostKeys.decide('cucm', CUCM_HOST, 'trust', fingerprint);
    },
    commands(command) {
      return lab.state.log.commands
        .filter((c) => command === undefined || c.command === command)
        .map((c) => ({ command: c.command, outcome: c.outcome, user: c.user }));
    },
    async stop() {
      await lab.stop();
      await vault.cleanup();
      state.cleanup();
    },
  };
}
