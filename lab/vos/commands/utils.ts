import { vosDate } from './format.ts';
import type { CliCommand, CommandContext, CommandOutput } from './types.ts';
import { failed } from './types.ts';

function serviceList(ctx: CommandContext): string[] {
  return [
    'Requesting service status, please wait...',
    ...ctx.facts.services.lines().map(([name, state, note]) => `${name}[${state}]${note ? ` ${note}` : ''}`),
    `Primary Node =${ctx.facts.product === 'cucm' || ctx.facts.product === 'imp' ? 'true' : 'false'}`,
  ];
}

function replication(ctx: CommandContext): string[] {
  const servers = ctx.facts.replicationServers();
  const stamp = new Date(ctx.now.getTime() - 12 * 86_400_000)
    .toISOString()
    .slice(0, 16)
    .replace(/[T:]/g, '-');
  const dbVersion = `ccm${ctx.facts.activeVersion.replace(/[.-]/g, '_')}`;
  return [
    '',
    `Server Time: ${vosDate(ctx.now)}`,
    '',
    `Cluster Replication State: BROADCAST SYNC Completed on ${servers.length - 1} servers at: ${stamp}`,
    '     Last Sync Result: SYNC COMPLETED on 691 tables out of 691',
    '     Sync Status: NO ERRORS',
    `     Use CLI to see detail: 'file view activelog cm/trace/dbl/${stamp.replace(/-/g, '_')}_dbl_repl_output_Broadcast.log'`,
    '',
    `DB Version: ${dbVersion}`,
    'Repltimeout set to: 300s',
    'PROCESS option set to: 1',
    '',
    `Cluster Detailed View from ${ctx.facts.hostname} (${servers.length} Servers):`,
    '',
    '                                      PING      DB/RPC/   REPL.    Replication    REPLICATION SETUP',
    'SERVER-NAME         IP ADDRESS        (msec)    DbMon?    QUEUE    Group ID       (RTMT) & Details',
    '-----------         ----------        ------    -------   -----    -----------    ------------------',
    ...servers.map(
      ([name, ip], i) =>
        `${name.padEnd(20)}${ip.padEnd(18)}${(i === 0 ? '0.028' : '0.412').padEnd(10)}Y/Y/Y     0        (g_${i + 2})          (2) Setup Completed`,
    ),
    '',
  ];
}

/**
 * ntpq's peer table, then ntpstat's verdict (the VOS command prints both). Unsynchronised: the server
 * cannot be reached (reach 0, no `*` peer) and ntpstat says so, as ntpstat words it.
 */
function ntp(ctx: CommandContext): string[] {
  const synced = ctx.os.ntpSynchronised;
  return [
    'ntpd (pid 2871) is running...',
    '',
    '     remote           refid      st t when poll reach   delay   offset  jitter',
    '==============================================================================',
    synced
      ? `*${ctx.facts.dns.padEnd(15)} .GPS.            1 u  512 1024  377    0.412   -0.021   0.034`
      : ` ${ctx.facts.dns.padEnd(15)} .INIT.          16 u    - 1024    0    0.000    0.000   0.000`,
    '',
    '',
    ...(synced
      ? [
          `synchronised to NTP server (${ctx.facts.dns}) at stratum 2`,
          '   time correct to within 27 ms',
          '   polling server every 1024 s',
        ]
      : ['unsynchronised', '  time server re-starting', '   polling server every 64 s']),
    '',
    `Current time in UTC is : ${vosDate(ctx.now)}`,
    `Current time in Etc/UTC is : ${vosDate(ctx.now)}`,
  ];
}

function fips(ctx: CommandContext): string[] {
  if (!ctx.os.fipsEnabled) return ['The system is operating in NON-FIPS Mode'];
  return [
    'The system is operating in FIPS mode. Self test status:',
    '    - S T A R T ---------------------',
    '    Executing FIPS selftests',
    `    Start time: ${vosDate(ctx.now)}`,
    '    NSS self tests passed.',
    '    Kernel Crypto tests passed.',
    '    Operating System OpenSSL self tests passed.',
    '    OpenSSL self tests passed.',
    '    CiscoSSL self tests passed.',
    '    CiscoSSH self tests passed.',
    `    End time: ${vosDate(ctx.now)}`,
    '    - E N D ---------------------',
  ];
}

function restartService(ctx: CommandContext, raw: string): CommandOutput {
  const name = raw.replace(/^\s*utils\s+service\s+restart\s+/i, '').trim();
  const { row, restarted } = ctx.facts.services.cliRestart(name);
  if (!row) return failed(`Service "${name}" is not a valid service name.`);
  if (!restarted) return failed(`${row.name} is not activated; activate it before restarting it.`);
  const service = row.name;
  ctx.os.serviceRestarts.push(service);
  ctx.log.write({ node: ctx.os.node, via: 'cli', operation: 'utils service restart', target: service });
  return {
    lines: [
      'Do not press Ctrl+C while the service is restarting. If the service has not restarted properly, execute the same command again.',
      'Service Manager is running',
      `${service}[STOPPING]`,
      `${service}[STOPPING]`,
      'Commanded Out of Service',
      `${service}[NOTRUNNING]`,
      'Service Manager is running',
      `${service}[STARTING]`,
      `${service}[STARTED]`,
    ],
  };
}

/** IM&P: each presence redundancy group from the node's database, so the CLI agrees with AXL. */
function haStatus(ctx: CommandContext): string[] {
  const groups = ctx.db?.table('presenceredundancygroup').rows ?? [];
  if (groups.length === 0)
    return [
      '',
      'Sub-Cluster Name: DefaultCUPSubcluster',
      'Sub-Cluster Id: 1',
      'Sub-Cluster HA Mode: Balanced',
      `Node 1 Name: ${ctx.facts.hostname}  State: Normal  Reason: Normal`,
      '',
    ];
  return groups.flatMap((g, i) => {
    const nodes = [g.fkprocessnode_1, g.fkprocessnode_2]
      .map((pkid) => (pkid ? ctx.db?.table('processnode').byPkid(pkid)?.name : undefined))
      .filter((n): n is string => typeof n === 'string');
    return [
      '',
      `Sub-Cluster Name: ${g.name ?? ''}`,
      `Sub-Cluster Id: ${i + 1}`,
      `Sub-Cluster HA Mode: ${g.haenabled === 't' ? 'Balanced' : 'Disabled'}`,
      ...nodes.map((n, j) => `Node ${j + 1} Name: ${n}  State: Normal  Reason: Normal`),
      '',
    ];
  });
}

export const UTILS_COMMANDS: CliCommand[] = [
  { words: ['utils', 'service', 'list'], run: (ctx) => ({ lines: serviceList(ctx) }) },
  {
    words: ['utils', 'service', 'restart'],
    takesArgs: true,
    run: (ctx, _args, raw) => restartService(ctx, raw),
  },
  { words: ['utils', 'fips', 'status'], run: (ctx) => ({ lines: fips(ctx) }) },
  { words: ['utils', 'dbreplication', 'runtimestate'], run: (ctx) => ({ lines: replication(ctx) }) },
  { words: ['utils', 'ntp', 'status'], run: (ctx) => ({ lines: ntp(ctx) }) },
  {
    words: ['utils', 'ha', 'status'],
    products: ['imp'],
    run: (ctx) => ({ lines: haStatus(ctx) }),
  },
  {
    words: ['utils', 'system', 'restart'],
    run: (ctx) => ({
      lines: [],
      confirm: {
        lines: ['', 'Do you really want to restart ?', ''],
        prompt: 'Continue (y/n)?',
        yes: () => {
          ctx.os.restarts++;
          ctx.log.write({
            node: ctx.os.node,
            via: 'cli',
            operation: 'utils system restart',
            target: ctx.os.node,
          });
          return {
            lines: [
              '',
              'Appliance is being Restarted ...',
              'Warning: Restart could take up to 5 minutes.',
              '',
              'Stopping Service Manager...',
            ],
            close: true,
          };
        },
        no: () => ({ lines: ['', 'Restart cancelled.'] }),
      },
    }),
  },
];
