// Read-only commands for the OS hardening settings the CUCM audit judges. The command names are the CLI
// references'; `utils sso status` prints what Cisco's SSO troubleshooting note shows, the other output
// lines are the lab's own wording (no public source shows them), so the checks reading them match
// loosely and are marked unverified.
import type { CliCommand, CommandContext } from './types.ts';

function esm(ctx: CommandContext): string[] {
  // The CLI reference describes the answer as operating in EnhancedSecurityMode or non-EnhancedSecurityMode.
  return [
    `The system is operating in ${ctx.os.enhancedSecurityMode ? 'EnhancedSecurityMode' : 'non-EnhancedSecurityMode'}`,
  ];
}

function sso(ctx: CommandContext): string[] {
  if (!ctx.os.samlSso) return ['SSO Status: Disabled'];
  return [
    'SSO Status: SAML SSO Enabled',
    'IdP Metadata Imported Date = Mon Jan 05 09:12:44 UTC 2026',
    `SP Metadata Exported Date = Mon Jan 05 09:10:02 UTC 2026`,
    'SSO Test Result Date = Mon Jan 05 09:15:31 UTC 2026',
    'SAML SSO Test Status = passed',
    `Entity ID = https://${ctx.facts.hostname}.lab.example.com/adfs/services/trust`,
    'Recovery URL Status = enabled',
  ];
}

function communities(ctx: CommandContext): string[] {
  if (ctx.os.snmpCommunities.length === 0) return ['There are no community strings configured.'];
  return ctx.os.snmpCommunities.flatMap((c, i) => [
    `${i + 1})`,
    `Community String = ${c}`,
    'Access Privileges = ReadOnly',
    'Host IP Addresses = All',
    '',
  ]);
}

function v3Users(ctx: CommandContext): string[] {
  if (ctx.os.snmpV3Users.length === 0) return ['There are no v3 users configured.'];
  return ctx.os.snmpV3Users.flatMap((u, i) => [
    `${i + 1})`,
    `Username = ${u.name}`,
    `Authentication Protocol = ${u.auth}`,
    `Privacy Protocol = ${u.priv}`,
    'Access Privileges = ReadOnly',
    'Host IP Addresses = All',
    '',
  ]);
}

export const HARDENING_COMMANDS: readonly CliCommand[] = [
  { words: ['utils', 'enhancedsecuritymode', 'status'], run: (ctx) => ({ lines: esm(ctx) }) },
  { words: ['utils', 'sso', 'status'], run: (ctx) => ({ lines: sso(ctx) }) },
  {
    words: ['show', 'webapp', 'session', 'timeout'],
    // The platform's wording of the current value, as the set command's example in the Finesse guide prints it.
    run: (ctx) => ({
      lines: [
        `The current session-timeout used for web sessions and applications is ${ctx.os.webSessionTimeoutMinutes} minutes.`,
      ],
    }),
  },
  {
    words: ['show', 'cli', 'session', 'timeout'],
    run: (ctx) => ({ lines: [`CLI session timeout: ${ctx.os.cliSessionTimeoutMinutes} minutes`] }),
  },
  {
    words: ['utils', 'snmp', 'config', '1/2c', 'community-string', 'list'],
    run: (ctx) => ({ lines: communities(ctx) }),
  },
  { words: ['utils', 'snmp', 'config', '3', 'user', 'list'], run: (ctx) => ({ lines: v3Users(ctx) }) },
];
