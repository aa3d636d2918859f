// A child process of trust-store-lock.test.ts: records `count` hosts of its own in one client's known
// hosts file, as an instance sharing the state directory records first contacts.
// Run as: node --import tsx trust-store-writers.ts <path> <writer> <count>
import { KnownHostsFile } from '../../../kernel/vault/known-hosts-file.ts';

const [path, writer, count] = process.argv.slice(2) as [string, string, string];
const file = new KnownHostsFile(path, 'noc-agent', Buffer.alloc(32, 7));
for (let i = 0; i < Number(count); i++) {
  file.put(`cucm/${writer}-${i}`, {
    pending: { fingerprint: `SHA256:${'A'.repeat(43)}`, at: new Date().toISOString() },
    rejected: [],
  });
}
