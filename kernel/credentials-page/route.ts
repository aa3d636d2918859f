import type Router from '@koa/router';
import { TokenRejected } from '../auth/access-tokens.ts';
import { isKernelError } from '../errors/index.ts';
import { FormBodyError, readForm } from '../http/form-body.ts';
import { ipGuard } from '../http/middleware/ip-guard.ts';
import { routeLabel } from '../http/middleware/route-label.ts';
import type { KernelContext, KernelState } from '../http/state.ts';
import type { KernelRuntime } from '../runtime.ts';
import { linkInstance, linkInstanceName, type CredentialLink, type CredentialLinks } from './links.ts';
import { sendCredentialError, sendCredentialForm, sendStoredPage } from './page-html.ts';

/** The form holds a CSRF token, a username (256), a password (1024) and a choice: 8 KiB is plenty. */
export const CREDENTIAL_FORM_MAX_BYTES = 8192;
/** A link's id: 43 random base64url characters, after `<instance>~` when the store is shared. */
const LINK_ID = /^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,62}~)?[A-Za-z0-9_-]{43}$/;
const PATH = '/credentials/enter/:id';

/**
 * GET shows the form of a one-time credential link; POST stores what the person typed in the vault of
 * the client the link is bound to (through the tool's own submit: the same checks, the vault's
 * CREDENTIAL and TRUSTED records) and uses the link up. The browser is not authenticated: the link's
 * unguessable id, its expiry and single use, and the form's CSRF token tied to it are what authorize;
 * a request that does carry a bearer token must be the link's own client's.
 */
export function credentialPageRoutes(links: CredentialLinks) {
  return (router: Router<KernelState>, rt: KernelRuntime): void => {
    router.get(PATH, routeLabel(PATH), ipGuard(rt), async (ctx) => {
      const link = await resolve(ctx, rt, links);
      if (!link) return;
      sendCredentialForm(ctx, 200, view(rt, link));
    });

    router.post(PATH, routeLabel(PATH), ipGuard(rt), async (ctx) => {
      // A browser posting this form sends Origin (the transport guard has checked it is ours) and, if it
      // sends Sec-Fetch-Site, same-origin. Neither: not a form of this page.
      const site = ctx.get('sec-fetch-site');
      if ((site !== '' && site !== 'same-origin') || (site === '' && ctx.get('origin') === '')) {
        await failure(rt, ctx, 'credential_page_cross_site', true);
        return sendCredentialError(ctx, 403, 'BAD_REQUEST', 'the form must be posted from its own page');
      }
      const link = await resolve(ctx, rt, links);
      if (!link) return;
      let form: Map<string, string>;
      try {
        form = await readForm(ctx, CREDENTIAL_FORM_MAX_BYTES);
      } catch (err) {
        if (!(err instanceof FormBodyError)) throw err;
        return sendCredentialError(
          ctx,
          err.status,
          err.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST',
          err.message,
        );
      }
      if (!links.checkCsrf(link, form.get('csrf') ?? '')) {
        await failure(rt, ctx, 'credential_page_invalid_csrf', true, link.client);
        return sendCredentialError(
          ctx,
          403,
          'BAD_REQUEST',
          'this form is not the one the link showed; open the link again',
        );
      }
      const username = form.get('username') ?? '';
      const password = form.get('password') ?? '';
      const choice = form.get('host_key') ?? 'later';
      const problem =
        username.trim() === '' || username.length > 256
          ? 'the username must be 1 to 256 characters'
          : password === '' || password.length > 1024
            ? 'the password must be 1 to 1024 characters'
            : !['later', 'trust', 'reject'].includes(choice) || (choice !== 'later' && !offersHostKey(link))
              ? 'host_key must be later, trust or reject, and only where the page offers the choice'
              : null;
      if (problem) {
        const stays = links.fail(link);
        if (!stays)
          return sendCredentialError(ctx, 400, 'BAD_REQUEST', `${problem}; the link is now used up`);
        return sendCredentialForm(ctx, 400, {
          ...view(rt, link),
          error: { code: 'BAD_REQUEST', message: problem },
          username: username.slice(0, 256),
        });
      }
      if (!links.begin(link))
        return sendCredentialError(ctx, 409, 'BAD_REQUEST', 'this link is being submitted already');
      const hostKey = choice === 'trust' || choice === 'reject' ? choice : undefined;
      try {
        const result = await link.request.submit(
          { username, password, ...(hostKey ? { hostKey } : {}) },
          rt.vault.forClient(link.client, { ip: ctx.state.ip }),
        );
        links.succeed(link, result);
      } catch (err) {
        // Whatever failed, the link is no longer being submitted: it waits again or is used up.
        const stays = links.fail(link);
        if (!isKernelError(err) || !err.expose) throw err;
        if (!stays) return sendCredentialError(ctx, 400, err.code, `${err.message}; the link is now used up`);
        return sendCredentialForm(ctx, 400, {
          ...view(rt, link),
          error: { code: err.code, message: err.message },
          username,
        });
      }
      rt.log.info(
        { client: link.client, tool: link.request.tool, host: link.request.host, ip: ctx.state.ip },
        'credentials entered on the credential page',
      );
      sendStoredPage(
        ctx,
        link.request,
        hostKey === 'trust' ? 'trusted' : hostKey === 'reject' ? 'rejected' : '',
      );
    });
  };
}

/** Whether the page offered a host-key decision (the fieldset): a presented key this caller may decide on. */
function offersHostKey(link: CredentialLink): boolean {
  const k = link.request.hostKey;
  return k !== undefined && k.decidable && k.state === 'pending' && k.fingerprint !== undefined;
}

function view(rt: KernelRuntime, link: CredentialLink) {
  return {
    serverName: rt.config.SERVER_NAME,
    client: link.client,
    request: link.request,
    csrf: link.csrf,
    expiresAt: new Date(link.expiresAt).toISOString(),
  };
}

/** The link a request names, or the refusal page already sent (null). */
async function resolve(
  ctx: KernelContext,
  rt: KernelRuntime,
  links: CredentialLinks,
): Promise<CredentialLink | null> {
  const id = String(ctx.params.id ?? '');
  if (LINK_ID.test(id) && (await misdirected(ctx, rt, id))) return null;
  const found = LINK_ID.test(id) ? links.lookup(id) : ({ ok: false, why: 'unknown' } as const);
  if (!found.ok) {
    // An id never issued looks like guessing and counts toward the address's blacklist; an expired or
    // used one was real.
    await failure(rt, ctx, `credential_link_${found.why}`, found.why === 'unknown');
    const message = {
      unknown: 'this credential link does not exist',
      expired: 'this credential link has expired; ask the assistant for a new one',
      used: 'this credential link was already used; nothing more can be entered with it',
    }[found.why];
    sendCredentialError(ctx, found.why === 'unknown' ? 404 : 410, 'NOT_FOUND', message);
    return null;
  }
  const other = await bearerClient(ctx, rt);
  if (other !== null && other !== found.link.client) {
    await failure(rt, ctx, 'credential_link_foreign_client', true, found.link.client);
    sendCredentialError(ctx, 403, 'ProfilePermissionError', 'this credential link belongs to another client');
    return null;
  }
  return found.link;
}

/**
 * A link naming another instance: only that instance holds it (and the tool waiting for it), so this
 * one answers 421 with what the balancer must do, before anything of the request's body is read (the
 * password is not parsed here, let alone passed on). Not counted toward the address's blacklist: the
 * person followed a real link, and the balancer's configuration is what is wrong.
 */
async function misdirected(ctx: KernelContext, rt: KernelRuntime, id: string): Promise<boolean> {
  const owner = linkInstance(id);
  if (owner === undefined || owner === linkInstanceName(rt.state.instance)) return false;
  const here = linkInstanceName(rt.state.instance);
  rt.log.warn(
    { owner, instance: here, ip: ctx.state.ip, method: ctx.method },
    'a credential link of another instance reached this one: the balancer must route /credentials/enter/<instance>~ to that instance (docs/scale-out.md)',
  );
  await failure(rt, ctx, 'credential_link_misdirected', false);
  sendCredentialError(
    ctx,
    421,
    'MISDIRECTED_REQUEST',
    `this credential link belongs to instance ${owner}, but the load balancer sent it to instance ${here}: ` +
      `the balancer must send /credentials/enter/${owner}~... to instance ${owner} (docs/scale-out.md, ` +
      '"Credential page"); open the link again once it does',
  );
  return true;
}

/**
 * The client a request's bearer token names: null without one. A token that does not verify is no
 * client's, and is refused like another client's.
 */
async function bearerClient(ctx: KernelContext, rt: KernelRuntime): Promise<string | null> {
  const header = ctx.get('authorization');
  if (header === '') return null;
  const token = header.replace(/^bearer\s+/i, '').trim();
  try {
    return (await rt.auth.tokens.verify(token)).sub;
  } catch (err) {
    if (!(err instanceof TokenRejected)) throw err;
    return '(invalid token)';
  }
}

async function failure(
  rt: KernelRuntime,
  ctx: KernelContext,
  reason: string,
  counts: boolean,
  client?: string,
): Promise<void> {
  await rt.auth.events.failure({
    status: 'AUTH_FAILED',
    ip: ctx.state.ip,
    reason,
    counts,
    path: '/credentials/enter',
    ...(client ? { link_client: client } : {}),
  });
}
