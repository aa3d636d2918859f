// Preloaded into a server process (lazy-modules.test.ts): on SIGUSR2 writes to $LOADED_MODULES_FILE which
// modules the process has loaded so far: the CommonJS module cache (CommonJS packages, also those an ES
// module imported) and every URL the ES module loader has loaded since this preload ran (before the
// server's first module).
import { renameSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const esm = new Set<string>();
port1.on('message', (url: string) => esm.add(url));
port1.unref();
register('./load-recorder.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });

const require = createRequire(import.meta.url);
const file = process.env.LOADED_MODULES_FILE as string;
process.on('SIGUSR2', () => {
  writeFileSync(`${file}.tmp`, JSON.stringify({ cjs: Object.keys(require.cache), esm: [...esm] }));
  renameSync(`${file}.tmp`, file);
});
