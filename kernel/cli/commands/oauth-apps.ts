// oauth_apps: lists and removes the OAuth applications registered by RFC 7591 (secrets/oauth_apps.json).
// Works whether the server runs or not: the server reads the file again when it is replaced, so a
// removal applies to its next request (sign-in, token, refresh, and every token issued through it).
// With a shared state store (STATE_BACKEND=redis://...) the applications live there: the command reads
// and changes them there, and every running instance sees a removal within a second.

import {
  openRegisteredApps,
  openRegisteredAppsOn,
  REGISTERED_APP_ID,
  type RegisteredApp,
  type RegisteredApps,
} from '../../auth/registered-apps.ts';
import { authStateFiles } from '../../auth/services.ts';
import { operatorSettings, type OperatorSettings } from '../../support/settings.ts';
import { EXIT, type CliCommand, type CliIo } from '../command.ts';
import { STATE_DIR_OPTION } from '../common-options.ts';
import { MAIN } from '../help.ts';
import { recordOperatorEvent } from '../operator-audit.ts';
import { operatorSharedState } from '../operator-state.ts';

const NAME = 'oauth_apps';

const HELP = `Usage:
  ${NAME} list [--json]             the registered applications
  ${NAME} remove <client_id>        removes one; its tokens and refresh tokens stop working at once

Applications (MCP hosts such as Claude Code or VS Code) register themselves with POST /register
(RFC 7591). An application is never an identity: its users sign in as one of AUTH_CLIENTS at the login
page and get that client's profile. Registrations are bounded (OAUTH_MAX_REGISTERED_CLIENTS) and expire
when unused for OAUTH_REGISTRATION_IDLE_DAYS. Applications known by a client ID metadata document (an
https client_id) are not registered and are not listed here.

Runs while the server runs: the server reads secrets/oauth_apps.json again when it changes. With a
shared state store (STATE_BACKEND=redis://...) the applications are read and removed there, and every
instance sees the change. A removal is recorded in the audit log (AUTH APP_REMOVED).

Exit codes: 0 done; 1 failed (unknown client_id, unreadable file, state store unreachable); 2 usage error.`;

export const command: CliCommand = {
  name: NAME,
  summary: 'list or remove OAuth applications registered by dynamic client registration',
  help: HELP,
  options: [{ name: 'json', type: 'boolean', description: 'list: print JSON' }, STATE_DIR_OPTION],
  async run({ values, positionals }, io) {
    const [action, ...rest] = positionals;
    const usage = (why: string): number => {
      io.err(`${NAME}: ${why}\nRun '${MAIN} ${NAME} --help' for usage.\n`);
      return EXIT.USAGE;
    };
    if (action !== 'list' && action !== 'remove') return usage('the action is list or remove');
    if (action === 'list' && rest.length > 0) return usage(`unexpected argument '${rest[0]}'`);
    if (action === 'remove' && (rest.length !== 1 || values.json !== undefined))
      return usage('remove takes one client_id (and no --json)');
    const stateDirOption = typeof values['state-dir'] === 'string' ? values['state-dir'] : undefined;
    const settings = operatorSettings(io, stateDirOption);
    const idleDays = settings.config?.OAUTH_REGISTRATION_IDLE_DAYS ?? 30;
    const appSettings = {
      max: settings.config?.OAUTH_MAX_REGISTERED_CLIENTS ?? 100,
      idleMs: idleDays * 86_400_000,
    };
    const clientId = rest[0] as string;
    if (action === 'remove' && !REGISTERED_APP_ID.test(clientId))
      return usage(
        `${JSON.stringify(clientId.slice(0, 80))} is not a registered application's client_id (app.<22 characters>)`,
      );
    const file = authStateFiles(settings.paths).apps;
    let shared;
    try {
      shared = await operatorSharedState(settings);
    } catch (err) {
      io.err(`${NAME}: ${(err as Error).message}; nothing changed.\n`);
      return EXIT.FAILED;
    }
    try {
      const apps = shared
        ? await openRegisteredAppsOn(shared, file, appSettings)
        : openRegisteredApps(file, appSettings);
      return await act(apps, action, clientId, settings, values.json === true, io);
    } finally {
      await shared?.close();
    }
  },
};

async function act(
  apps: RegisteredApps,
  action: 'list' | 'remove',
  clientId: string,
  settings: OperatorSettings,
  json: boolean,
  io: CliIo,
): Promise<number> {
  if (action === 'list') return list(apps.list(), (a) => apps.expiresAt(a), json, io);

  const removed = await apps.remove(clientId);
  if (!removed) {
    io.err(`${NAME}: no registered application ${clientId}; nothing changed.\n`);
    return EXIT.FAILED;
  }
  await recordRemoval(settings, removed);
  io.out(`Removed ${clientId}${removed.client_name !== null ? ` (${shown(removed.client_name)})` : ''}.\n`);
  return EXIT.OK;
}

function list(
  apps: RegisteredApp[],
  expiresAt: (a: RegisteredApp) => number,
  json: boolean,
  io: CliIo,
): number {
  const iso = (ms: number): string => new Date(ms).toISOString();
  const rows = apps
    .sort((a, b) => a.registered_at - b.registered_at)
    .map((a) => ({
      client_id: a.client_id,
      client_name: a.client_name,
      redirect_uris: a.redirect_uris,
      registered_at: iso(a.registered_at),
      registered_from: a.registered_from,
      last_used_at: iso(a.last_used_at),
      expires_at: iso(expiresAt(a)),
    }));
  if (json) {
    io.out(`${JSON.stringify(rows, null, 2)}\n`);
    return EXIT.OK;
  }
  if (rows.length === 0) {
    io.out('No registered applications.\n');
    return EXIT.OK;
  }
  for (const r of rows)
    io.out(
      [
        `${r.client_id}  ${r.client_name === null ? '(no name)' : shown(r.client_name)}`,
        `  registered ${r.registered_at} from ${r.registered_from}; last used ${r.last_used_at}; expires ${r.expires_at} unless used`,
        ...r.redirect_uris.map((u) => `  redirect ${u}`),
        '',
      ].join('\n'),
    );
  return EXIT.OK;
}

/** A name as the application gave it, quoted so that nothing in it passes for output of this command. */
function shown(name: string): string {
  return JSON.stringify(name);
}

/** The removal in the live audit log, as the server records its own application events. */
function recordRemoval(settings: OperatorSettings, app: RegisteredApp): Promise<void> {
  return recordOperatorEvent(settings, {
    event: 'AUTH',
    status: 'APP_REMOVED',
    azp: app.client_id,
    client_app: app.client_name,
    by: 'operator',
  });
}
