import { X509Certificate, createHash } from 'node:crypto';
import { pairs, vosDate } from './format.ts';
import type { CliCommand, CommandContext } from './types.ts';
import { failed } from './types.ts';

function versionLines(kind: 'Active' | 'Inactive', version: string): string[] {
  return [
    `${kind} Master Version: ${version}`,
    `${kind} Version Installed Software Options:`,
    'No Installed Software Options Found.',
  ];
}

function status(ctx: CommandContext): string[] {
  const f = ctx.facts;
  const t = ctx.now.toISOString().slice(11, 16);
  return [
    '',
    `Host Name          : ${f.hostname}`,
    `Date               : ${vosDate(ctx.now)}`,
    'Time Zone          : Coordinated Universal Time (Etc/UTC)',
    'Locale             : en_US.UTF-8',
    `Product Ver        : ${f.activeVersion}`,
    'Unified OS Version : 8.0.0.0-1',
    '',
    'Uptime:',
    ` ${t}:00 up ${f.uptimeDays} days,  3:02,  1 user,  load average: 0.21, 0.19, 0.18`,
    '',
    'CPU Idle:   97.49%  System:   01.01%    User:   01.50%',
    '  IOWAIT:   00.00%     IRQ:   00.00%    Soft:   00.00%',
    '',
    'Memory Total:        8009316K',
    '        Free:         345128K',
    '        Used:        7664188K',
    '      Cached:        2456396K',
    '      Shared:         401344K',
    '     Buffers:         132064K',
    '',
    '                        Total            Free            Used',
    'Disk/active         19805412K        3512212K       16088952K (83%)',
    'Disk/inactive       19805412K       18663220K         135408K (1%)',
    'Disk/logging        61796876K       41232080K       17397064K (30%)',
  ];
}

function network(ctx: CommandContext): string[] {
  const f = ctx.facts;
  return [
    'Ethernet 0',
    pairs(['DHCP', 'disabled'], ['Status', 'up']),
    pairs(['IP Address', f.ip], ['IP Mask', '255.255.255.000']),
    pairs(['Link Detected', 'yes'], ['Mode', 'Auto disabled, Full, 10000 Mbits/s']),
    pairs(['Duplicate IP', 'no']),
    '',
    'DNS',
    pairs(['Primary', f.dns], ['Secondary', 'Not Configured']),
    pairs(['Options', 'timeout:5 attempts:2']),
    pairs(['Domain', f.domain]),
    '',
    `Gateway    : ${f.gateway} on Ethernet 0`,
  ];
}

/** A distinguished name as the CLI prints it, most specific first (`L=RTP, ST=NC, CN=..., C=US`). */
function cliName(dn: string): string {
  return dn.split('\n').filter(Boolean).reverse().join(', ');
}

/**
 * `show cert own <unit>`: the certificate's fields, then the certificate itself. The tomcat certificate
 * is the one the node really serves (lab/tls): its serial, names, validity and key are read from it, so
 * what the CLI says and what a TLS client sees agree (self-signed or issued by the lab CA alike). The
 * other units are the node's system-generated certificates, described by their fields only, with a
 * serial stable for the node and unit.
 */
function certDetails(ctx: CommandContext, name: string): string[] | undefined {
  const cert = ctx.facts.certs.find(([n]) => n.toLowerCase() === name.toLowerCase());
  if (!cert) return undefined;
  const isTomcat = cert[0] === 'tomcat/tomcat.pem';
  const served = isTomcat && ctx.tomcatCertPem ? new X509Certificate(ctx.tomcatCertPem) : undefined;
  const from = (isTomcat ? ctx.tomcatNotBefore : undefined) ?? new Date(ctx.now.getTime() - 400 * 86_400_000);
  const to = isTomcat ? ctx.tomcatNotAfter : new Date(ctx.now.getTime() + 1425 * 86_400_000);
  const subject = served
    ? cliName(served.subject)
    : `L=RTP, ST=NC, CN=${ctx.facts.hostname}.${ctx.facts.domain}, OU=UC Lab, O=Lab, C=US`;
  const selfSigned = cert[1].startsWith('Self-signed');
  const issuer = served
    ? cliName(served.issuer)
    : selfSigned
      ? subject
      : 'CN=UC MCP Lab CA, O=uc-mcp-server lab';
  const ec = cert[0].includes('ECDSA');
  const bits = served?.publicKey.asymmetricKeyDetails?.modulusLength ?? (ec ? 384 : 2048);
  const serial =
    served?.serialNumber.toLowerCase() ??
    (isTomcat ? ctx.tomcatSerial : undefined) ??
    createHash('sha256').update(`${ctx.facts.hostname}/${cert[0]}`).digest('hex').slice(0, 32);
  return [
    '[',
    '  Version: V3',
    `  Serial Number: ${serial}`,
    ec
      ? '  SignatureAlgorithm: SHA384withECDSA (1.2.840.10045.4.3.3)'
      : '  SignatureAlgorithm: SHA256withRSA (1.2.840.113549.1.1.11)',
    `  Issuer Name: ${issuer}`,
    `  Validity From: ${vosDate(from)}`,
    `           To:   ${vosDate(to)}`,
    `  Subject Name: ${subject}`,
    ec ? '  Key: EC (1.2.840.10045.2.1)' : '  Key: RSA (1.2.840.113549.1.1.1)',
    `    Key value: ${bits} bits`,
    ']',
    ...(ctx.tomcatCertPem && served ? ctx.tomcatCertPem.trim().split(/\r?\n/) : []),
  ];
}

function expiry(kind: 'maximum' | 'minimum', days: number, user: boolean): string {
  const who = user ? 'User password' : 'Password';
  return days === 0
    ? `${who} expiry ${kind} age is disabled`
    : `${who} expiry ${kind} age is set to ${days} days`;
}

export const SHOW_COMMANDS: CliCommand[] = [
  {
    words: ['show', 'version', 'active'],
    run: (ctx) => ({ lines: versionLines('Active', ctx.facts.activeVersion) }),
  },
  {
    words: ['show', 'version', 'inactive'],
    run: (ctx) => ({ lines: versionLines('Inactive', ctx.facts.inactiveVersion) }),
  },
  { words: ['show', 'status'], run: (ctx) => ({ lines: status(ctx) }) },
  { words: ['show', 'network', 'eth0'], takesArgs: true, run: (ctx) => ({ lines: network(ctx) }) },
  {
    words: ['show', 'cert', 'list', 'own'],
    run: (ctx) => ({ lines: ctx.facts.certs.map(([n, d]) => `${n}: ${d}`) }),
  },
  {
    // The trust stores hold the cluster's own certificates (each node's tomcat and, on CUCM, CallManager
    // leaf) and the CAs uploaded; names as `<unit>-trust/<file>.pem: <description>`.
    words: ['show', 'cert', 'list', 'trust'],
    run: (ctx) => ({
      lines: [
        ...ctx.facts
          .cluster()
          .flatMap((n) => [
            `tomcat-trust/${n.name}.pem: Trust Certificate`,
            ...(n.product === 'callmanager' ? [`CallManager-trust/${n.name}.pem: Trust Certificate`] : []),
          ]),
        ...(ctx.facts.certs.some(([, d]) => d.startsWith('Certificate Signed by'))
          ? ['tomcat-trust/UC_MCP_Lab_CA.pem: Signed Certificate']
          : []),
        ...(ctx.facts.product === 'cucm'
          ? [
              'CallManager-trust/Cisco_Manufacturing_CA_SHA2.pem: Trust Certificate',
              'CallManager-trust/Cisco_Root_CA_M2.pem: Trust Certificate',
              'CAPF-trust/Cisco_Manufacturing_CA_SHA2.pem: Trust Certificate',
            ]
          : []),
      ],
    }),
  },
  {
    words: ['show', 'cert', 'own'],
    takesArgs: true,
    run: (ctx, args) => {
      const lines = args[0] ? certDetails(ctx, args[0]) : undefined;
      return lines ? { lines } : failed(`Certificate ${args[0] ?? ''} was not found`);
    },
  },
  {
    words: ['show', 'tls', 'min-version'],
    run: (ctx) => ({ lines: [`Configured TLS minimum version: ${ctx.os.tlsMinVersion}`] }),
  },
  {
    words: ['show', 'password', 'expiry', 'maximum-age'],
    run: (ctx) => ({ lines: [expiry('maximum', ctx.os.passwordMaxAgeDays, false)] }),
  },
  {
    words: ['show', 'password', 'expiry', 'minimum-age'],
    run: (ctx) => ({ lines: [expiry('minimum', ctx.os.passwordMinAgeDays, false)] }),
  },
  {
    words: ['show', 'password', 'expiry', 'user', 'maximum-age'],
    run: (ctx) => ({ lines: [expiry('maximum', ctx.os.passwordMaxAgeDays, true)] }),
  },
  {
    words: ['show', 'password', 'expiry', 'user', 'minimum-age'],
    run: (ctx) => ({ lines: [expiry('minimum', ctx.os.passwordMinAgeDays, true)] }),
  },
  {
    words: ['show', 'myself'],
    run: (ctx) => ({
      lines: [
        `Machine Name    : ${ctx.facts.hostname}`,
        `account name    : ${ctx.user}`,
        'privilege level : 4',
        'command count disabled : false',
        'account status  : enabled',
      ],
    }),
  },
];
