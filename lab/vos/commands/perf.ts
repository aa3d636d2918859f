// `show perf query class|counter|instance`: perfmon counters as the VOS CLI prints them. The layout is the
// one Cisco's documents show (Unified CM install guide, "Number of Replicates Created and State of
// Replication"; the MOH TechNote; `show perf query class Memory` in public write-ups):
//
//   ==>query class :
//
//    - Perf class (Memory) has instances and values:
//                       -> % Mem Used                     = 53
//
// i.e. four spaces, the instance padded to 16, `-> `, the counter padded to 31, `= value`.
import type { CommandContext, CliCommand, CommandOutput } from './types.ts';
import { failed } from './types.ts';

type Counters = [string, number][];
/** Instance name (empty: a class without instances) to its counters. */
type PerfClass = [string, Counters][];

/** Splits the arguments the way the CLI does: on spaces and commas, double quotes keep spaces. */
export function perfArgs(raw: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|([^\s,"]+)/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) out.push(m[1] ?? m[2] ?? '');
  return out;
}

function classes(ctx: CommandContext): Map<string, PerfClass> {
  const f = ctx.facts;
  const cpu = (idle: number): Counters => [
    ['% CPU Time', 100 - idle],
    ['IOwait Percentage', 0],
    ['Idle Percentage', idle],
    ['IRQ Percentage', 0],
    ['Nice Percentage', 0],
    ['Softirq Percentage', 0],
    ['System Percentage', 1],
    ['User Percentage', 99 - idle],
  ];
  // The same machine `show status` describes: 8009316K total, 7664188K used.
  const memory: PerfClass = [
    [
      '',
      [
        ['% Mem Used', 96],
        ['% Page Usage', 61],
        ['% VM Used', 58],
        ['Buffers KBytes', 132_064],
        ['Cached KBytes', 2_456_396],
        ['Free KBytes', 345_128],
        ['Free Swap KBytes', 6_021_112],
        ['Shared KBytes', 401_344],
        ['Total KBytes', 8_009_316],
        ['Total Swap KBytes', 8_191_996],
        ['Total VM KBytes', 16_201_312],
        ['Used KBytes', 7_664_188],
        ['Used Swap KBytes', 2_170_884],
        ['Used VM KBytes', 9_835_072],
      ],
    ],
  ];
  const partition = (name: string, totalMb: number, usedPct: number): [string, Counters] => [
    name,
    [
      ['% Used', usedPct],
      ['Queue Length', 0],
      ['Total Mbytes', totalMb],
      ['Used Mbytes', Math.round((totalMb * usedPct) / 100)],
    ],
  ];
  const map = new Map<string, PerfClass>([
    [
      'Processor',
      [
        ['_Total', cpu(97)],
        ['0', cpu(96)],
        ['1', cpu(98)],
      ],
    ],
    ['Memory', memory],
    [
      'Partition',
      [
        partition('Active', 19_341, 83),
        partition('Boot', 1_009, 22),
        partition('Common', 60_348, 30),
        partition('Inactive', 19_341, 1),
        partition('Swap', 7_999, 26),
      ],
    ],
    [
      'Number of Replicates Created and State of Replication',
      [
        [
          'ReplicateCount',
          [
            ['Number of Replicates Created', f.product === 'cuc' ? 512 : 749],
            ['Replicate_State', 2],
          ],
        ],
      ],
    ],
  ]);
  if (f.product === 'cucm') {
    const phones = f.risPhones?.() ?? [];
    const here = phones.filter((p) => p.node === f.hostname && p.status === 'Registered');
    map.set('Cisco CallManager', [
      [
        '',
        [
          ['CallsActive', 0],
          ['CallsAttempted', 1_284],
          ['CallsCompleted', 1_201],
          ['CallsInProgress', 0],
          ['RegisteredHardwarePhones', here.length],
          ['RegisteredOtherStationDevices', 0],
        ],
      ],
    ]);
  }
  if (f.product === 'imp') {
    map.set('Cisco Presence Engine', [['', [['ActiveJsmSessions', 3]]]]);
    map.set('Cisco XCP CM', [['', [['CmConnectedSockets', 3]]]]);
  }
  return map;
}

function find(map: Map<string, PerfClass>, name: string): [string, PerfClass] | undefined {
  for (const entry of map) if (entry[0].toLowerCase() === name.toLowerCase()) return entry;
  return undefined;
}

function valueLines(values: PerfClass, only?: (counter: string) => boolean): string[] {
  return values.flatMap(([instance, counters]) =>
    counters
      .filter(([c]) => !only || only(c))
      .map(([c, v]) => `    ${instance.padEnd(16)}-> ${c.padEnd(31)}= ${v}`),
  );
}

/** The class lookup failed: the CLI names what it could not find. Wording not confirmed by a source. */
const noClass = (name: string): CommandOutput => failed(`Invalid class name: ${name}`);

function queryClass(ctx: CommandContext, names: string[]): CommandOutput {
  if (names.length === 0 || names.length > 5)
    return failed('Usage: show perf query class class-name[,class-name...]');
  const map = classes(ctx);
  const lines = ['==>query class :'];
  for (const name of names) {
    const found = find(map, name);
    if (!found) return noClass(name);
    lines.push('', ` - Perf class (${found[0]}) has instances and values:`, ...valueLines(found[1]));
  }
  return { lines };
}

/** `counter <class> <counter>[,...]`: the CUIC TechNote shows `Perf class X(counter) has values`. */
function queryCounter(ctx: CommandContext, args: string[]): CommandOutput {
  const [name, ...counters] = args;
  if (!name || counters.length === 0 || counters.length > 5)
    return failed('Usage: show perf query counter class-name counter-name[,counter-name...]');
  const found = find(classes(ctx), name);
  if (!found) return noClass(name);
  const lines = ['==>query counter :'];
  for (const counter of counters) {
    const want = counter.toLowerCase();
    const values = valueLines(found[1], (c) => c.toLowerCase() === want);
    if (values.length === 0) return failed(`Invalid counter name: ${counter}`);
    lines.push('', ` - Perf class ${found[0]}(${counter}) has values:`, ...values);
  }
  return { lines };
}

function queryInstance(ctx: CommandContext, args: string[]): CommandOutput {
  const [name, ...instances] = args;
  if (!name || instances.length === 0)
    return failed('Usage: show perf query instance class-name instance-name[,instance-name...]');
  const found = find(classes(ctx), name);
  if (!found) return noClass(name);
  const lines = ['==>query instance :'];
  for (const instance of instances) {
    const values = found[1].filter(([i]) => i.toLowerCase() === instance.toLowerCase());
    if (values.length === 0) return failed(`Invalid instance name: ${instance}`);
    lines.push('', ` - Perf class (${found[0]}) has instances and values:`, ...valueLines(values));
  }
  return { lines };
}

const rest = (raw: string, words: number): string => raw.trim().split(/\s+/).slice(words).join(' ');

export const PERF_COMMANDS: CliCommand[] = [
  {
    words: ['show', 'perf', 'query', 'class'],
    takesArgs: true,
    run: (ctx, _args, raw) => queryClass(ctx, perfArgs(rest(raw, 4))),
  },
  {
    words: ['show', 'perf', 'query', 'counter'],
    takesArgs: true,
    run: (ctx, _args, raw) => queryCounter(ctx, perfArgs(rest(raw, 4))),
  },
  {
    words: ['show', 'perf', 'query', 'instance'],
    takesArgs: true,
    run: (ctx, _args, raw) => queryInstance(ctx, perfArgs(rest(raw, 4))),
  },
];
