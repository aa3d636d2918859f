// The VOS CLI rows of the change table: a class per command family, the longest matching prefix winning
// (as the CLI's own command tree: `utils service list` is a read under `utils service`). Families as the
// Command Line Interface Reference Guide for Cisco Unified Communications Solutions groups them (Show,
// File, Set, Unset, Delete, Run and Utils Commands chapters; the Utils and Show chapters are cited in
// plugins/_shared/audit/vos-references.ts). Commands are matched lower-cased with single spaces.
import type { ChangeRule } from './change-rule.ts';

export interface CliRule extends ChangeRule {
  /** Whole words: `show` matches `show version` but not `showx`; a `*` word matches any one word. */
  readonly prefix: string;
}

const SHOWS = 'prints state or configuration; nothing on the node changes';
const SERVICE_STOP = 'stops what the service serves (stopping Cisco CallManager unregisters phones)';

function rows(cls: ChangeRule['class'], why: string, prefixes: string[]): CliRule[] {
  return prefixes.map((prefix) => ({ prefix, class: cls, why }));
}

export const CLI_RULES: readonly CliRule[] = [
  ...rows('read', SHOWS, ['show']),
  ...rows('read', 'lists, shows or searches files; nothing on the node changes', [
    'file list',
    'file view',
    'file search',
    'file tail',
    'file dump',
    'file check',
    'file fragmentation',
  ]),
  ...rows('change', 'copies node files to a remote SFTP server: the node is unchanged, but data leaves it', [
    'file get',
  ]),
  ...rows('destructive', 'deletes files on the node: nothing brings them back', ['file delete']),
  ...rows('read', 'a SELECT on the database (one statement: a line with ";" is never a read)', [
    'run sql select',
  ]),
  ...rows('read', "a SELECT on one of Unity Connection's databases", ['run cuc dbquery * select']),
  ...rows('destructive', 'any other SQL statement can change or delete any row', ['run sql', 'run cuc']),
  ...rows('read', SHOWS, [
    'utils service list',
    'utils fips status',
    'utils enhancedsecuritymode status',
    'utils sso status',
    'utils snmp config 1/2c community-string list',
    'utils snmp config 3 user list',
    'utils ntp status',
    'utils disaster_recovery history',
    'utils disaster_recovery status',
    'utils disaster_recovery schedule list',
    'utils dbreplication runtimestate',
    'utils dbreplication status',
    'utils ha status',
    'utils diagnose list',
    'utils diagnose test',
    'utils core active list',
    'utils core inactive list',
    'utils network ping',
    'utils network traceroute',
    'utils network host',
    'utils network arp list',
    'utils system boot status',
    'utils system upgrade status',
  ]),
  ...rows('change', 'starts a stopped service; stopping it puts it back', ['utils service start']),
  ...rows('change', 'activates a feature service; deactivating it puts it back', ['utils service activate']),
  ...rows(
    'change',
    'changes whether the node restarts a failed service; the earlier setting can be set again',
    ['utils service auto-restart'],
  ),
  ...rows('destructive', SERVICE_STOP, [
    'utils service stop',
    'utils service restart',
    'utils service deactivate',
  ]),
  ...rows('destructive', 'restarts, shuts down or switches the whole node: every service on it stops', [
    'utils system restart',
    'utils system shutdown',
    'utils system switch-version',
    'utils system upgrade',
  ]),
  ...rows(
    'destructive',
    'resets, stops or repairs database replication across the cluster: hours without consistent data',
    ['utils dbreplication'],
  ),
  ...rows(
    'destructive',
    'a utils command this table does not name (repairs, resets, security modes, certificates): worst case',
    ['utils'],
  ),
  ...rows('change', 'sets the trace level of a task: diagnostics only, set back with the earlier level', [
    'set trace',
  ]),
  ...rows('change', 'a setting of this CLI session only', ['set cli pagination']),
  ...rows(
    'destructive',
    'changes platform settings (network, passwords, certificates, security, time): many restart services or the node, or cannot be read back',
    ['set'],
  ),
  ...rows('destructive', 'removes a platform setting (IPsec policies, DNS options)', ['unset']),
  ...rows('destructive', 'deletes an account, a DNS server, a process or other platform objects', ['delete']),
];

export const CLI_UNKNOWN: ChangeRule = {
  class: 'destructive',
  why: 'a command this table does not know (license, admin and other families): treated as the worst case',
};

/** A read whose line holds ";" could chain a second statement (`run sql select ...; delete ...`). */
export const CLI_CHAINED: ChangeRule = {
  class: 'destructive',
  why: 'the line holds ";": a second statement could follow the read, so it is not treated as one',
};
