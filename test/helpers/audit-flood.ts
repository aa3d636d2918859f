// Child process for the crash test: writes audit records as fast as it can and reports on stdout the
// sequence number of each record once `write` has returned (i.e. acknowledged), until it is killed.
import { AuditLog } from '../../kernel/audit/audit-log.ts';

const [path, rotateBytes] = process.argv.slice(2);
const audit = new AuditLog({ path: path as string, maxBytes: Number(rotateBytes), maxFiles: 1000 });
let seq = 0;
function burst(): void {
  for (let i = 0; i < 200; i++) {
    seq++;
    audit.write({
      event: 'ACTIONS',
      status: 'ALLOWED',
      client: 'flood',
      tool_name: 'infra_health',
      seq,
      pad: 'x'.repeat(seq % 300),
    });
    process.stdout.write(`${seq}\n`);
  }
  setImmediate(burst);
}
burst();
