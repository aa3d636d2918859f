import type { LabFile } from '../facts.ts';
import type { CliCommand, CommandContext, CommandOutput } from './types.ts';
import { failed } from './types.ts';

const PARTITIONS = ['activelog', 'inactivelog', 'install'];
const OPTIONS = ['detail', 'date', 'reverse', 'page', 'size'];

/** `01 Dec,2025 02:00:05`, the time stamp `file list ... detail` prints. */
function fileDate(d: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const month = d.toUTCString().slice(8, 11);
  return `${pad(d.getUTCDate())} ${month},${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** The files a `<dir>/<name>` path names; `*` in the name matches any characters. */
function filesAt(
  ctx: CommandContext,
  partition: string,
  path: string,
): { dir: string; files: LabFile[] } | undefined {
  const clean = path.replace(/^\/+|\/+$/g, '');
  const cut = clean.lastIndexOf('/');
  const dir = cut === -1 ? '' : clean.slice(0, cut);
  const name = cut === -1 ? clean : clean.slice(cut + 1);
  const all = ctx.facts.listFiles?.(partition.toLowerCase(), dir, ctx.now);
  if (!all) return undefined;
  const re = new RegExp(
    `^${name
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return { dir, files: all.filter((f) => re.test(f.name)) };
}

/**
 * What a log holds: the lab keeps names and sizes only, so a file's lines are made up from its name, one
 * line a minute ending at its modification time (DRF logs read as the DRF writes them).
 */
function logLines(file: LabFile, count: number): string[] {
  const backup = /_b_([^_]+)_(.+)\.log$/.exec(file.name);
  const lines: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const at = new Date(file.modified.getTime() - i * 60_000)
      .toISOString()
      .replace('T', ' ')
      .replace('Z', '')
      .replace('.', ',');
    lines.push(
      backup
        ? `${at} INFO [main] - ${backup[2]}: backup of ${backup[1]} ${i === 0 ? 'completed with result SUCCESS' : `in progress, step ${count - i}`}`
        : `${at} INFO [NetServerWorker] - drfService: heartbeat from ${file.name.replace(/\d*\.log$/, '')}`,
    );
  }
  return lines;
}

/** `file tail activelog <path> [lines]`: the last lines (10 unless a count is given). */
function tail(ctx: CommandContext, args: string[]): CommandOutput {
  const [partition, path, ...options] = args;
  const count = options.find((o) => /^\d+$/.test(o));
  if (!partition || !PARTITIONS.includes(partition.toLowerCase()) || !path)
    return failed(`Usage: file tail ${PARTITIONS.join('|')} <file-spec> [detail] [hex] [lines]`);
  const found = filesAt(ctx, partition, path);
  const file = found?.files[0];
  // Wording not confirmed by a stored source.
  if (!file) return failed(`File ${partition} ${path} was not found`);
  return { lines: logLines(file, Math.min(Number(count ?? 10), 1_000)) };
}

/** `file view activelog <file>`: the whole file, through the `options:` pager. */
function view(ctx: CommandContext, args: string[]): CommandOutput {
  const [partition, path, ...rest] = args;
  if (!partition || !PARTITIONS.includes(partition.toLowerCase()) || !path || rest.length > 0)
    return failed(`Usage: file view ${PARTITIONS.join('|')} <file-spec>`);
  const file = filesAt(ctx, partition, path)?.files[0];
  if (!file) return failed(`File ${partition} ${path} was not found`);
  // About a line per 100 bytes of the file, at most a thousand.
  return { lines: logLines(file, Math.min(1_000, Math.max(1, Math.round(file.size / 100)))), paged: true };
}

/**
 * `file get activelog <path>`: counts what it would send, then asks before asking for an SFTP server
 * (the question ends `[y/n]?`, not `(y/n)?`). The lab keeps no SFTP server: "y" ends at the first
 * question for it; "n" sends nothing.
 */
function get(ctx: CommandContext, args: string[]): CommandOutput {
  const [partition, path] = args;
  if (!partition || !PARTITIONS.includes(partition.toLowerCase()) || !path)
    return failed(
      `Usage: file get ${PARTITIONS.join('|')} <file-spec> [reltime|abstime] [match] [recurs] [compress]`,
    );
  const found = filesAt(ctx, partition, path);
  if (!found || found.files.length === 0)
    return failed(
      'Please wait while the system is gathering files info ...done.',
      'No files matched filter criteria.',
    );
  const bytes = found.files.reduce((n, f) => n + f.size, 0);
  return {
    lines: [],
    confirm: {
      lines: [
        'Please wait while the system is gathering files info ...done.',
        'Sub-directories were not traversed.',
        `Number of files affected: ${found.files.length}`,
        `Total size in Bytes: ${bytes}`,
        `Total size in Kbytes: ${(bytes / 1024).toFixed(6)}`,
      ],
      prompt: 'Would you like to proceed [y/n]?',
      yes: () => failed('SFTP server IP: ', 'No SFTP server address was entered; nothing was sent.'),
      no: () => ({ lines: [] }),
    },
  };
}

/**
 * `file list <partition> <dir> [detail] [date|size] [reverse]`: the files a node's facts declare (the
 * lab keeps no real file system; a node without `listFiles` has empty log folders).
 */
export const FILE_COMMANDS: CliCommand[] = [
  {
    words: ['file', 'list'],
    takesArgs: true,
    run: (ctx, args) => {
      const [partition, dir, ...options] = args;
      if (!partition || !PARTITIONS.includes(partition.toLowerCase()) || !dir)
        return failed(`Usage: file list ${PARTITIONS.join('|')} <directory> [${OPTIONS.join('] [')}]`);
      const unknown = options.filter((o) => !OPTIONS.includes(o.toLowerCase()));
      if (unknown.length > 0) return failed(`Invalid option "${unknown.join(' ')}"`);
      const path = dir.replace(/^\/+|\/+$/g, '');
      const files: LabFile[] | undefined = ctx.facts.listFiles?.(partition.toLowerCase(), path, ctx.now);
      if (!files) return failed(`Directory ${partition} ${path} was not found`);
      const by = options.map((o) => o.toLowerCase());
      const sorted = [...files].sort((a, b) =>
        by.includes('date')
          ? a.modified.getTime() - b.modified.getTime()
          : by.includes('size')
            ? a.size - b.size
            : a.name.localeCompare(b.name),
      );
      if (by.includes('reverse')) sorted.reverse();
      const detail = by.includes('detail');
      return {
        paged: by.includes('page'),
        lines: [
          ...sorted.map((f) =>
            detail
              ? `${fileDate(f.modified)}  ${f.size.toLocaleString('en-US').padStart(12)}  ${f.name}`
              : f.name,
          ),
          `dir count = 0, file count = ${sorted.length}`,
        ],
      };
    },
  },
  { words: ['file', 'tail'], takesArgs: true, run: (ctx, args) => tail(ctx, args) },
  { words: ['file', 'view'], takesArgs: true, run: (ctx, args) => view(ctx, args) },
  { words: ['file', 'get'], takesArgs: true, run: (ctx, args) => get(ctx, args) },
];
