import { createWriteStream, readdirSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import yazl from 'yazl';

/**
 * Zips the files of `dir` (flat, as the bundle is) under the folder name `root`, so unzipping gives the
 * same folder --no-zip would have written. The archive is created with 0600 and never overwrites.
 */
export async function zipFolder(dir: string, target: string, root: string): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const name of readdirSync(dir).sort())
    zip.addFile(join(dir, name), `${root}/${name}`, { mode: 0o100600 });
  const out = createWriteStream(target, { flags: 'wx', mode: 0o600 });
  const closed = once(out, 'close');
  zip.outputStream.pipe(out);
  zip.end();
  await closed;
}
