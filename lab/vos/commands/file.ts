import type { LabFile } from '../facts.ts';
import type { CliCommand } from './types.ts';
import { failed } from './types.ts';

const PARTITIONS = ['activelog', 'inactivelog', 'install'];
const OPTIONS = ['detail', 'date', 'reverse', 'page', 'size'];

/** `01 Dec,2025 02:00:05`, the time stamp `file list ... detail` prints. */
function fileDate(d: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const month = d.toUTCString().slice(8, 11);
  return `${pad(d.getUTCDate())} ${month},${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
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
];
