// Child process of durability.test.ts: updates one credential in a loop, printing each acknowledged
// write, until the parent kills it with SIGKILL at an arbitrary moment.
import { AuditLog } from '../../../kernel/audit/audit-log.ts';
import { statePaths } from '../../../kernel/paths.ts';
import { Vault } from '../../../kernel/vault/index.ts';

const [stateDir, startArg] = process.argv.slice(2);
if (!stateDir || !startArg) throw new Error('usage: crash-writer <stateDir> <firstIndex>');
const paths = statePaths(stateDir);
const audit = new AuditLog({ path: paths.auditLog, maxBytes: 50_000_000, maxFiles: 2 });
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const view = Vault.open(paths, audit, quiet).forClient('crash');

await view.get('cucm', 'os', 'cucm1.lab');
process.stdout.write('ready\n');
for (let i = Number(startArg); ; i++) {
  await view.update('cucm', 'os', 'cucm1.lab', { username: 'admin', password: `pw-${i}` });
  process.stdout.write(`${i}\n`);
}
