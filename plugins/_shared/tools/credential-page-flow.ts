// The credential tools without a password in their arguments: a person enters it on the server's
// one-time page (ctx.credentialPage), asked for with URL-mode elicitation where the client declared it
// (2025-11-25: a real elicitation/create request; 2026-07-28: an input_required result), else by the
// link in the tool's result. The password never passes through the client or its model.
import {
  BadRequestError,
  CredentialError,
  inputRequired,
  normaliseHost,
  sshHost,
  structuredReply,
  type CredentialPageRequest,
  type InputRequest,
  type ToolContext,
  type ToolReply,
} from '../../../kernel/sdk/index.ts';
import { checkCredentialTarget } from '../node/credential-target.ts';
import { toSecret, type CredentialArgs } from './credential-input.ts';
import { KIND_LABEL, type CredentialToolSpec } from './product-labels.ts';

/** The key of the elicitation request, and the prefix of the tool's own state. */
const KEY = 'cred';
const STATE = 'cred-link:';
/**
 * How long one round waits for the page to be submitted after the client answered `accept` (which
 * only says the person agreed to open it). Under the SDK clients' 60 s request timeout; a person who
 * needs longer gets the same link asked again (a fresh input request), until it expires.
 */
const WAIT_MS = 45_000;
const PROGRESS_MS = 5_000;

export type CredentialOperation = 'store' | 'update';

/** Refuses a password argument once CREDENTIALS_IN_ARGUMENTS is off, before anything is looked at. */
export function checkPasswordArgument(password: string | undefined, ctx: ToolContext): void {
  if (password !== undefined && !ctx.credentialPage.argumentsAllowed)
    throw new BadRequestError(
      'this server does not accept passwords as tool arguments (CREDENTIALS_IN_ARGUMENTS=0): call the tool ' +
        'without `password` and a person enters it on the one-time credential page the tool links to',
    );
}

/**
 * One round of the page flow. First round: checks what can be checked without the password (address,
 * TLS pins, the node address policy), opens a link bound to this caller and tool, and asks for it.
 * Next round (the client's answer): stored -> the vault entry; declined -> nothing stored; not yet
 * submitted -> waits a little, then asks again; expired or withdrawn -> CredentialError.
 */
export async function credentialThroughPage(
  spec: CredentialToolSpec,
  toolName: string,
  operation: CredentialOperation,
  input: Omit<CredentialArgs, 'password'>,
  ctx: ToolContext,
): Promise<ToolReply> {
  const done = operation === 'store' ? 'stored' : 'updated';
  const state = ctx.input.state;
  if (state?.startsWith(STATE)) {
    const id = state.slice(STATE.length);
    const action = answerAction(ctx.input.responses[KEY]);
    if (action === 'decline' || action === 'cancel') {
      ctx.credentialPage.cancel(id, toolName);
      return structuredReply({
        [done]: false,
        ...where(spec, input.host),
        reason: action === 'decline' ? 'declined' : 'cancelled',
        message: `Nothing was ${done}: the person ${action === 'decline' ? 'declined' : 'cancelled'} the credential page, and its link no longer works.`,
      });
    }
    let now = ctx.credentialPage.state(id, toolName);
    // Progress every few seconds while waiting keeps a client that resets its timeout on progress waiting.
    const until = Date.now() + WAIT_MS;
    for (let step = 1; now.state === 'pending' && Date.now() < until && !ctx.signal.aborted; step++) {
      now = await ctx.credentialPage.wait(
        id,
        toolName,
        Math.min(PROGRESS_MS, until - Date.now()),
        ctx.signal,
      );
      if (now.state === 'pending')
        await ctx.progress(step, undefined, 'waiting for the credential page to be submitted');
    }
    if (now.state === 'submitted') return structuredReply({ [done]: true, ...now.result });
    if (now.state === 'gone')
      throw new CredentialError(
        `the credential page link expired or was withdrawn before anything was ${done}; call ${toolName} again for a new link`,
      );
    return inputRequired({ [KEY]: ask(spec, input.host, now.url, id) }, `${STATE}${id}`);
  }

  // What the page will store, checked now with a stand-in password so a wrong host, address or PEM, or
  // a store where one exists (an update where none does), fails before anyone types anything; the vault
  // checks all of it again on submission.
  const check = toSecret({ ...input, password: '-' });
  await checkCredentialTarget(ctx, spec.kind, input.host, check);
  const key = normaliseHost(input.host);
  const exists = (await ctx.vault.list(spec.product)).some((e) => e.kind === spec.kind && e.host === key);
  if (exists !== (operation === 'update'))
    throw new CredentialError(
      exists
        ? `${spec.product} ${spec.kind} credentials for ${key} are already stored; use the update tool`
        : `no ${spec.product} ${spec.kind} credentials are stored for ${key}; use the store tool`,
    );
  const link = ctx.credentialPage.open(pageRequest(spec, toolName, operation, input, ctx));
  if (ctx.input.accepts.elicitationUrl)
    return inputRequired({ [KEY]: ask(spec, input.host, link.url, link.id) }, `${STATE}${link.id}`);
  return structuredReply({
    [done]: false,
    ...where(spec, input.host),
    pending: true,
    url: link.url,
    expires_at: link.expiresAt,
    message:
      `Nothing is ${done} yet. Give this one-time link to the person who knows the password and ask them to open ` +
      `it in a browser and submit the form (it expires at ${link.expiresAt}); the password never passes through ` +
      `this conversation. Then check with the list_credentials tool.`,
  });
}

function pageRequest(
  spec: CredentialToolSpec,
  toolName: string,
  operation: CredentialOperation,
  input: Omit<CredentialArgs, 'password'>,
  ctx: ToolContext,
): CredentialPageRequest {
  const details: Record<string, string> = {};
  if (input.address) details.Address = input.address;
  if (input.scheme) details.Scheme = input.scheme;
  if (input.ca_cert_pem) details['CA certificate'] = 'given (PEM)';
  if (input.cert_pem) details['Pinned certificate'] = 'given (PEM)';
  if (input.read_only === true) details.Writes = 'forbidden (read-only credential)';
  const hostKey = spec.kind === 'os' ? hostKeyView(spec, input.host, ctx) : undefined;
  return {
    tool: toolName,
    product: spec.product,
    kindLabel: KIND_LABEL[spec.kind],
    host: input.host,
    operation,
    username: input.username,
    details,
    ...(hostKey ? { hostKey } : {}),
    async submit(entry, vault) {
      const secret = toSecret({ ...input, username: entry.username, password: entry.password });
      await checkCredentialTarget(ctx, spec.kind, input.host, secret);
      // The decision first: if it is refused (the key changed since the page was shown), nothing is stored.
      const decided = hostKey?.fingerprint ? entry.hostKey : undefined;
      if (decided && hostKey?.fingerprint)
        vault.hostKeys.decide(spec.product, input.host, decided, hostKey.fingerprint);
      const stored =
        operation === 'store'
          ? await vault.store(spec.product, spec.kind, input.host, secret)
          : await vault.update(spec.product, spec.kind, input.host, secret);
      return { ...stored, ...(decided ? { host_key: decided === 'trust' ? 'trusted' : 'rejected' } : {}) };
    },
  };
}

/** The SSH host key as the vault knows it for this host, and whether this caller may decide on it. */
function hostKeyView(
  spec: CredentialToolSpec,
  host: string,
  ctx: ToolContext,
): CredentialPageRequest['hostKey'] {
  const wanted = sshHost(host);
  const known = ctx.vault.hostKeys.list(spec.product).find((h) => h.host === wanted);
  const decidable = ctx.kernel
    .permissions(ctx.caller)
    .tools.allowed.includes(`${spec.product}_os_trust_fingerprint`);
  if (!known) return { state: 'none', decidable };
  // A pinned key that changed: the new key awaits the decision, as *_os_trust_fingerprint would take it.
  if (known.pendingFingerprint) return { state: 'pending', fingerprint: known.pendingFingerprint, decidable };
  return { state: known.state, fingerprint: known.fingerprint, decidable };
}

function where(spec: CredentialToolSpec, host: string) {
  return { product: spec.product, kind: spec.kind, host };
}

function ask(spec: CredentialToolSpec, host: string, url: string, id: string): InputRequest {
  return {
    method: 'elicitation/create',
    params: {
      mode: 'url',
      message: `Enter the ${KIND_LABEL[spec.kind]} credentials for ${host.slice(0, 120)} on the server's one-time page (the password never passes through this conversation).`,
      url,
      elicitationId: id,
    },
  };
}

function answerAction(answer: unknown): string | undefined {
  if (!answer || typeof answer !== 'object') return undefined;
  const action = (answer as { action?: unknown }).action;
  return typeof action === 'string' ? action : undefined;
}
