// revoke_startup_token: revokes a client's startup token (clients/<name>/secrets/.token), which
// otherwise stays valid across restarts until it nears expiry or the RSA key rotates. The server must
// be stopped: it holds the revocation list in memory and rewrites the file whole at its next change,
// which would drop an entry added behind its back. While it runs, the client (or the operator with the
// client's secret) revokes the token with POST /revoke instead; either way a new .token is written, by
// the next start or, on a running server, by its housekeeping within a minute. With a shared state store
// (STATE_BACKEND=redis://...) the list lives there: the command adds to it there, the running instances
// see the entry within a second, and the server need not be stopped.

import { existsSync } from 'node:fs';
import { openRevocationList, openRevocationListOn } from '../../auth/revocation-list.ts';
import { authStateFiles } from '../../auth/services.ts';
import { PID_FILE, findRunningServer } from '../../backup/server-process.ts';
import { CLIENT_NAME } from '../../clients/auth-clients.ts';
import { clientPaths } from '../../clients/client-paths.ts';
import { readRegistration } from '../../clients/registration.ts';
import { operatorSettings } from '../../support/settings.ts';
import { EXIT, type CliCommand } from '../command.ts';
import { operatorSharedState } from '../operator-state.ts';
import { STATE_DIR_OPTION } from '../common-options.ts';
import { rejectPositionals } from '../dispatch.ts';

const NAME = 'revoke_startup_token';

const HELP = `Revokes the startup token of one client (the token in clients/<name>/secrets/.token): every
request that presents it is refused AUTH_REVOKED from the next start, which writes a new .token.
Startup tokens otherwise stay valid across restarts until they near expiry (they are renewed then) or
rotate_rsa_keys replaces the server key.

Run it with the server stopped: the server keeps the revocation list in memory. While the server runs,
revoke the token with POST /revoke (RFC 7009, authenticated with the client's secret); its housekeeping
writes a new .token within a minute. The server counts as running while STATE_DIR/${PID_FILE} names a
live process.

With a shared state store (STATE_BACKEND=redis://...) the revocation list is kept there and this runs
while the servers run: every instance refuses the token within a second, and the housekeeping of one
of them writes a new .token within a minute.

Exit codes: 0 revoked (or there was no live startup token); 1 failed or the server is running (nothing
changed); 2 usage error.`;

export const command: CliCommand = {
  name: NAME,
  summary: "revoke a client's startup token (.token); the next start writes a new one",
  help: HELP,
  options: [
    { name: 'client', type: 'string', description: 'the client name (as in AUTH_CLIENTS)' },
    STATE_DIR_OPTION,
  ],
  async run({ values, positionals }, io) {
    const stray = rejectPositionals(NAME, positionals, io);
    if (stray !== undefined) return stray;
    const client = values.client;
    if (typeof client !== 'string' || !CLIENT_NAME.test(client)) {
      io.err(`${NAME}: --client <name> is required (${CLIENT_NAME.source})\n`);
      return EXIT.USAGE;
    }
    const stateDirOption = typeof values['state-dir'] === 'string' ? values['state-dir'] : undefined;
    const settings = operatorSettings(io, stateDirOption);
    const { paths } = settings;
    const sharedStore = settings.config !== null && settings.config.STATE_BACKEND !== 'local';
    let running;
    try {
      running = sharedStore ? undefined : findRunningServer(paths.root);
    } catch (err) {
      io.err(`${NAME}: ${(err as Error).message}; nothing changed.\n`);
      return EXIT.FAILED;
    }
    if (running) {
      io.err(
        `${NAME}: the server is running on ${paths.root} (pid ${running.pid}); stop it first, or revoke the token with POST /revoke. Nothing changed.\n`,
      );
      return EXIT.FAILED;
    }
    const p = clientPaths(paths.clients, client);
    if (!existsSync(p.registration)) {
      io.err(`${NAME}: no client "${client}" in ${paths.clients}; nothing changed.\n`);
      return EXIT.FAILED;
    }
    const registration = readRegistration(p.registration);
    const named = [registration?.startup_token, registration?.replaced_startup_token].filter(
      (t) => t !== undefined,
    );
    const live = named.filter((t) => t.exp > Date.now() / 1000);
    if (live.length === 0) {
      io.out(`${client} has no live startup token; the next start writes a new one.\n`);
      return EXIT.OK;
    }
    const file = authStateFiles(paths).revocations;
    let shared;
    try {
      shared = await operatorSharedState(settings);
    } catch (err) {
      io.err(`${NAME}: ${(err as Error).message}; nothing changed.\n`);
      return EXIT.FAILED;
    }
    try {
      await (shared ? await openRevocationListOn(shared, file) : openRevocationList(file)).revoke(live);
    } finally {
      await shared?.close();
    }
    const next = shared
      ? `A running server writes a new ${p.token} within a minute (else the next start does).`
      : `The next start writes a new ${p.token}.`;
    io.out(`Revoked the startup token of ${client} (jti ${live.map((t) => t.jti).join(', ')}). ${next}\n`);
    return EXIT.OK;
  },
};
