// Child process for the torn-write test: run under a file-size limit (ulimit -f), it writes audit
// records until the log refuses one, writes one more after that, and prints what happened as JSON.
import { AuditLog } from '../../kernel/audit/audit-log.ts';

const [path] = process.argv.slice(2);
const audit = new AuditLog({ path: path as string, maxBytes: 1 << 30, maxFiles: 2 });
let acked = 0;
const errors: string[] = [];
for (let seq = 1; seq <= 10_000 && errors.length < 2; seq++) {
  try {
    // Records of uneven length, so the limit falls inside one of them.
    audit.write({ event: 'ACTIONS', status: 'ALLOWED', seq, pad: 'x'.repeat(37 + (seq % 91)) });
    acked = seq;
  } catch (err) {
    errors.push(
      `${(err as { code?: string }).code}: ${((err as Error).cause as Error | undefined)?.message}`,
    );
  }
}
process.stdout.write(JSON.stringify({ acked, errors }));
