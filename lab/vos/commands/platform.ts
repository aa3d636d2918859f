// Platform commands an administrator runs to see a node and its cluster: `show hardware`, `show network
// cluster`, `utils core active list`, `utils diagnose test`, `show cli pagination`.
import type { ClusterNode } from '../facts.ts';
import { vosDate } from './format.ts';
import type { CliCommand, CommandContext } from './types.ts';

/**
 * Shape of `show hardware` on a CUCM 12.5/14/15 virtual machine as TAC documents print it (the common
 * partition clean-up TechNote lists it among the disk checks); the exact spacing is not confirmed by a
 * stored source.
 */
function hardware(ctx: CommandContext): string[] {
  const h = ctx.facts.hardware;
  const rule = '-'.repeat(69);
  return [
    'HW Platform       : VMware Virtual Machine',
    `Processors        : ${h.cpus}`,
    `Type              : ${h.cpuType}`,
    `CPU Speed         : ${h.cpuMhz}`,
    `Memory            : ${h.memoryMb} MBytes`,
    'Object ID         : 1.3.6.1.4.1.9.1.1348',
    'OS Version        : UCOS 8.0.0.0-1.el7',
    `Serial Number     : VMware-42 16 ${ctx.facts.hostname.length.toString(16).padStart(2, '0')} 1c 5e 0f 3a 7d-91 aa 02 6c 3b 4e 11 9f`,
    '',
    'RAID Version      :',
    'No RAID controller information is available',
    '',
    'BIOS Information  :',
    'PhoenixTechnologiesLTD 6.00 12/12/2018',
    '',
    'RAID Details      :',
    'No RAID information is available',
    '',
    rule,
    'Physical device information',
    rule,
    'Number of Disks    : 1',
    'Hard Disk #1',
    `Size (in GB)   : ${h.diskGb}`,
    '',
    rule,
    'Partition information',
    rule,
    'Partition aligned',
  ];
}

/** The DB role: the first node of a product publishes its database, the others subscribe. */
function dbRole(nodes: ClusterNode[], n: ClusterNode): 'DBPub' | 'DBSub' {
  return nodes.find((o) => o.product === n.product) === n ? 'DBPub' : 'DBSub';
}

/**
 * `show network cluster`, as the Cisco TechNote on CUCM cluster authentication prints it (and the
 * samples parsers in public repositories read): one line per node, `<ip> <fqdn> <host> <role> <product>
 * <DB role> authenticated`, the peers with `using TCP since <time>`, this node without; subscribers
 * first and the publisher last; the publisher alone adds its processnode table.
 */
function networkCluster(ctx: CommandContext): string[] {
  const f = ctx.facts;
  const nodes = f.cluster();
  const since = vosDate(new Date(ctx.now.getTime() - f.uptimeDays * 86_400_000 + 97_000));
  const ordered = [
    ...nodes.filter((n) => n.role !== 'Publisher'),
    ...nodes.filter((n) => n.role === 'Publisher'),
  ];
  const lines = ordered.map((n) => {
    const base = `${n.ip} ${n.name}.${f.domain} ${n.name} ${n.role} ${n.product} ${dbRole(nodes, n)} authenticated`;
    return n.name === f.hostname ? base : `${base} using TCP since ${since}`;
  });
  const self = nodes.find((n) => n.name === f.hostname);
  if (self?.role !== 'Publisher') return lines;
  return [
    ...lines,
    '',
    'Server Table (processnode) Entries',
    '----------------------------------',
    // The publisher is in processnode by name; the nodes added later by their address.
    ...nodes.filter((n) => n.product === self.product).map((n) => (n === self ? n.name : n.ip)),
  ];
}

function coreList(ctx: CommandContext): string[] {
  const cores = ctx.facts.coreFiles;
  if (cores.length === 0) return ['No core files found'];
  const at = (d: Date): string => d.toISOString().slice(0, 19).replace('T', ' ');
  return [
    'Size         Date            Core File Name',
    '===============================================',
    ...cores.map(([kb, when, name]) => `${`${kb} KB`.padEnd(12)}${at(when)}   ${name}`),
  ];
}

/** The modules `utils diagnose test` runs, as its log prints them (Cisco Finesse/UCM install guides). */
function diagnose(ctx: CommandContext): string[] {
  const f = ctx.facts;
  const row = (verdict: 'test' | 'skip', module: string, result: string): string =>
    `${verdict} - ${module.padEnd(20)}: ${result}`;
  const stopped = f.services
    .lines()
    .filter(([, state, note]) => state === 'STOPPED' && note !== 'Service Not Activated');
  return [
    'Log file: platform/log/diag1.log',
    '',
    'Starting diagnostic test(s)',
    '===========================',
    row('test', 'disk_space', 'Passed (available: 3429 MB, used: 15711 MB)'),
    row('skip', 'disk_files', 'This module must be run directly and off hours'),
    row(
      'test',
      'service_manager',
      stopped.length === 0 ? 'Passed' : `Failed - ${stopped.map(([n]) => n).join(', ')} not running`,
    ),
    row('test', 'tomcat', 'Passed'),
    row('test', 'tomcat_deadlocks', 'Passed'),
    row('test', 'tomcat_keystore', 'Passed'),
    row('test', 'tomcat_connectors', 'Passed'),
    row('test', 'tomcat_threads', 'Passed'),
    row('test', 'tomcat_memory', 'Passed'),
    row('test', 'tomcat_sessions', 'Passed'),
    row('skip', 'tomcat_heapdump', 'This module must be run directly and off hours'),
    row('test', 'validate_network', 'Passed'),
    row('test', 'raid', 'Passed'),
    row('test', 'system_info', 'Passed (Collected system information in diagnostic log)'),
    row('test', 'ntp_reachability', 'Passed'),
    row('test', 'ntp_clock_drift', 'Passed'),
    row('test', 'ntp_stratum', 'Passed'),
    row('skip', 'sdl_fragmentation', 'This module must be run directly and off hours'),
    row('skip', 'sdi_fragmentation', 'This module must be run directly and off hours'),
    '',
    'Diagnostics Completed',
    '',
    'The final output will be in Log file: platform/log/diag1.log',
    '',
    "Please use 'file view activelog platform/log/diag1.log' command to see the output",
  ];
}

export const PLATFORM_COMMANDS: CliCommand[] = [
  { words: ['show', 'hardware'], run: (ctx) => ({ lines: hardware(ctx) }) },
  { words: ['show', 'network', 'cluster'], run: (ctx) => ({ lines: networkCluster(ctx) }) },
  { words: ['utils', 'core', 'active', 'list'], run: (ctx) => ({ lines: coreList(ctx) }) },
  { words: ['utils', 'diagnose', 'test'], run: (ctx) => ({ lines: diagnose(ctx) }) },
  {
    // CLI Reference Guide 12.5(1)SU3, "show cli pagination": `Automatic Pagination : Off.`
    words: ['show', 'cli', 'pagination'],
    run: (ctx) => ({ lines: [`Automatic Pagination : ${ctx.pagination ? 'On' : 'Off'}.`] }),
  },
];
