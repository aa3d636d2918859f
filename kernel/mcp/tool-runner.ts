import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AuditEntry, AuditLog } from '../audit/audit-log.ts';
import {
  AuditUnavailableError,
  BadRequestError,
  isKernelError,
  LicenseError,
  NotFoundError,
  ProfilePermissionError,
  RateLimitedError,
} from '../errors/index.ts';
import type { ChangeJournal } from '../changes/change-journal.ts';
import type { PlanStore } from '../changes/plan-store.ts';
import { journalView, plansView } from '../changes/views.ts';
import type { AppLogger } from '../logging/app-log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { PluginRegistry, RegisteredTool } from '../plugins/registry.ts';
import { checkStructuredOutput } from '../plugins/output-schema.ts';
import {
  assertAllowlisted,
  effectiveProducts,
  rateWindow,
  toolPermitted,
  type Narrowing,
} from '../rbac/policy.ts';
import type { Profile } from '../rbac/profile-schema.ts';
import type { RateLimiter } from '../rbac/rate-limiter.ts';
import type { LicenseStatus } from '../runtime.ts';
import type { CredentialPages, PluginDirs, ToolContext, ToolInput } from '../sdk/define.ts';
import type { ChangeJournalView, ChangePlans } from '../sdk/changes.ts';
import type { KernelServices } from '../sdk/kernel-services.ts';
import { runWithNodeRequests } from '../sdk/node-requests.ts';
import type { CallerInfo, PluginAuditEntry, PluginLogger, Product, Service } from '../sdk/types.ts';
import { auditText } from './audit-text.ts';
import { CallNodeRequests } from './call-node-requests.ts';
import { RequestStateSeal } from './request-state.ts';
import {
  errorResult,
  inputRequiredResult,
  successResult,
  type ToolInputRequired,
  type ToolResult,
} from './tool-result.ts';
import type { ClientVault, Vault } from '../vault/index.ts';
import { FULL_VIEW, inView, standingView, type ToolView } from './toolsets.ts';

export interface CallContext {
  caller: CallerInfo;
  ip: string;
  signal: AbortSignal;
  progress?: (progress: number, total?: number, message?: string) => Promise<void>;
  /** A multi-round-trip call (SEP-2322): what the client declared it can answer, its answers, the state. */
  input?: CallInput;
  /** The toolsets and read-only mode the connection asked for (default: everything the caller may call). */
  view?: ToolView;
}

export interface CallInput {
  /** The client's declared capabilities (2026-07-28: this request's; 2025-11-25: its initialize). */
  capabilities?: unknown;
  /** Its answers to the previous round's input requests, by key. */
  responses?: Record<string, unknown>;
  /** The sealed state the previous round returned, as the client echoed it. */
  state?: unknown;
}

export interface RunnerDeps {
  registry: PluginRegistry;
  profile: (name: string) => Profile | undefined;
  /** The client's own restrictions on top of its profile. */
  narrowing: (client: string) => Narrowing;
  limiter: RateLimiter;
  license: () => LicenseStatus;
  audit: AuditLog;
  metrics: Metrics;
  log: AppLogger;
  kernel: KernelServices;
  dirs: PluginDirs;
  vault: Vault;
  /** Seals the state tools return for their next round (default: a key of this process). */
  requestStates?: RequestStateSeal;
  /** The one-time credential pages a tool of this client may open (ctx.credentialPage). */
  credentialPages: (client: string) => CredentialPages;
  /** Every client's change journal (ctx.changes shows the caller's). */
  changes: ChangeJournal;
  /** Preview plans (ctx.plans issues and uses the caller's). */
  plans: PlanStore;
}

type Outcome = 'ALLOWED' | 'DENIED' | 'RATE_LIMITED' | 'ERROR';

/**
 * Every MCP tool call passes here, in this order: license gate -> RBAC (tool, product scope) -> input
 * validation -> allowlist -> rate limit -> audit first -> handler; then, whatever happened, the ACTIONS
 * outcome record and the metrics. Plugins never re-implement any of it.
 *
 * Audit first: a call that reaches its handler is recorded before it runs (ACTIONS, status STARTED,
 * with the call_id its outcome record repeats). If that record cannot be written (disk full, read-only
 * log) the call is refused with AUDIT_UNAVAILABLE and the handler never runs: nothing happens on a
 * managed node without its audit record. Calls refused earlier (denied, invalid, rate limited) have
 * only their outcome record.
 *
 * What is done on the node: once the input is valid, the records carry the call's `operation` (and
 * `detail`), from the tool's `summary` or its allowlist subject; the outcome record also lists the
 * requests the handler really sent (`node_requests`: service, operation, address, count), which are
 * charged to their services' rate limits as they leave (the first per service and call).
 */
export class ToolRunner {
  private readonly states: RequestStateSeal;

  constructor(private readonly deps: RunnerDeps) {
    this.states = deps.requestStates ?? new RequestStateSeal();
  }

  /**
   * Throws unless `state` is a request state this server sealed for `client` and still valid: the MCP
   * layer's check before a round reaches its handler (the SDK's requestState.verify hook), so a forged
   * or expired state is answered as a protocol error (-32602). `call` checks it again, with the tool.
   */
  checkRequestState(state: unknown, client: string): void {
    this.states.open({ client }, state);
  }

  async call(name: string, rawArgs: unknown, cc: CallContext): Promise<ToolResult | ToolInputRequired> {
    const started = performance.now();
    const tool = this.deps.registry.tools.get(name);
    const args = rawArgs && typeof rawArgs === 'object' ? (rawArgs as Record<string, unknown>) : {};
    const host = typeof args.host === 'string' ? auditText(args.host, 300) : undefined;
    const record: AuditEntry = {
      event: 'ACTIONS',
      status: 'STARTED',
      call_id: randomUUID(),
      client: cc.caller.name,
      ip: cc.ip,
      tool_name: name,
      product: tool?.module ?? 'unknown',
      ...(host !== undefined ? { host } : {}),
    };
    let outcome: Outcome;
    let result: ToolResult | ToolInputRequired;
    let errorCode: string | undefined;
    let inputRequested: string[] | undefined;
    let ran = false;
    let sent: CallNodeRequests | undefined;
    try {
      if (!tool)
        throw this.deps.registry.unavailable(name) ?? new NotFoundError(`no tool named ${name.slice(0, 80)}`);
      const { profile, input } = this.authorize(tool, rawArgs, cc.caller, record, cc.view);
      const toolInput = this.toolInput(tool, cc);
      await this.charge(tool, profile, cc, tool.def.service, record);
      this.deps.audit.write(record);
      ran = true;
      const requests = new CallNodeRequests(
        tool.def.service,
        (service) => this.charge(tool, profile, cc, service, record),
        (service, subject) =>
          assertAllowlisted(profile, service, subject, this.deps.narrowing(cc.caller.name)),
      );
      sent = requests;
      const reply = await runWithNodeRequests(requests, () =>
        tool.def.handler(input, this.context(tool, cc, requests, toolInput, record.call_id as string)),
      );
      if (reply.inputRequired) {
        inputRequested = Object.keys(reply.inputRequired.requests ?? {});
        result = inputRequiredResult(reply.inputRequired, (state) =>
          this.states.seal({ tool: tool.name, client: cc.caller.name }, state),
        );
      } else {
        result = successResult(reply);
        checkStructuredOutput(tool, reply.structured, this.deps.log);
      }
      outcome = 'ALLOWED';
    } catch (err) {
      const mapped = errorResult(err, this.deps.log, name);
      result = mapped.result;
      errorCode = mapped.code;
      outcome =
        mapped.code === 'ProfilePermissionError' || mapped.code === 'READ_ONLY_CREDENTIAL'
          ? 'DENIED'
          : mapped.code === 'RATE_LIMITED'
            ? 'RATE_LIMITED'
            : 'ERROR';
    }
    const execMs = Math.round((performance.now() - started) * 1000) / 1000;
    try {
      this.deps.audit.write({
        ...record,
        status: outcome,
        result: outcome,
        exec_time_ms: execMs,
        ...(errorCode ? { error: errorCode } : {}),
        ...(inputRequested ? { input_requested: inputRequested.join(',').slice(0, 256) } : {}),
        ...sent?.auditFields(),
      });
    } catch (err) {
      if (!(err instanceof AuditUnavailableError)) throw err;
      // The outcome cannot be recorded. A refused call stays refused; a call that ran is reported as
      // not audited (it did happen: its STARTED record says so), and app.log keeps what is known.
      this.deps.log.error(
        { err, tool: name, client: cc.caller.name, call_id: record.call_id, outcome, ran },
        'the outcome of a tool call could not be written to the audit log',
      );
      if (ran) {
        const what = errorCode ? `failed with ${errorCode}` : 'completed';
        outcome = 'ERROR';
        result = errorResult(
          new AuditUnavailableError(
            `${name} ran and ${what}, but its outcome could not be written to the audit log; call_id ${String(record.call_id)}`,
          ),
          this.deps.log,
          name,
        ).result;
      }
    }
    const toolLabel = tool ? name : 'unknown';
    this.deps.metrics.toolCalls.inc({ client: cc.caller.name, tool: toolLabel, status: outcome });
    this.deps.metrics.toolDuration.observe({ tool: toolLabel }, execMs / 1000);
    return result;
  }

  /**
   * Whether `call` would refuse this call at its rate limit right now, every earlier check passing.
   * Nothing is taken, recorded or counted: the HTTP route asks before the MCP transport opens its
   * answer, so such a call can be answered 429 (the call is then made, and refused, by `call`).
   */
  async wouldBeRateLimited(
    name: string,
    rawArgs: unknown,
    caller: CallerInfo,
    view: ToolView = FULL_VIEW,
  ): Promise<boolean> {
    const tool = this.deps.registry.tools.get(name);
    if (!tool) return false;
    try {
      // The window first: while it has room (nearly every call) the answer is no whatever the earlier
      // checks say, so they run only for a call that meets a full window (`call` runs them anyway).
      const profile = this.deps.profile(caller.profile);
      if (!profile) return false;
      const service = tool.def.service;
      const window = rateWindow(profile, tool.module, service, this.deps.narrowing(caller.name));
      if ((await this.deps.limiter.remaining(caller.name, tool.module, service, window)) !== 0) return false;
      this.authorize(tool, rawArgs, caller, {} as AuditEntry, view);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Whether `caller` may call `tool` at all (license, profile, product scope): what tools/list shows.
   * The same decision `call` makes before it looks at the arguments, so the list never offers a tool
   * the call would refuse for who the caller is (an argument may still be refused by an allowlist).
   */
  permits(tool: RegisteredTool, caller: CallerInfo, view: ToolView = FULL_VIEW): boolean {
    try {
      this.gate(tool, caller, view);
      return true;
    } catch (err) {
      if (err instanceof LicenseError || err instanceof ProfilePermissionError) return false;
      throw err;
    }
  }

  /**
   * License gate, then RBAC, then validation and allowlist; returns the profile and the parsed input.
   * Once the input is valid, `record` gets what the call is about to do (a refusal says what it refused).
   */
  private authorize(
    tool: RegisteredTool,
    rawArgs: unknown,
    caller: CallerInfo,
    record: AuditEntry,
    view: ToolView = FULL_VIEW,
  ): { profile: Profile; input: Record<string, unknown> } {
    const profile = this.gate(tool, caller, view);
    const parsed = tool.schema.safeParse(rawArgs ?? {});
    if (!parsed.success) throw new BadRequestError(`invalid arguments: ${describeIssues(parsed.error)}`);
    const input = parsed.data as Record<string, unknown>;
    Object.assign(record, this.summarise(tool, input));
    const access = tool.def.access;
    if ('allowlist' in access)
      assertAllowlisted(profile, access.allowlist, access.subject(input), this.deps.narrowing(caller.name));
    return { profile, input };
  }

  /**
   * License gate, then RBAC (the profile's tool globs, the client's product scope), then the toolsets
   * the connection asked for; returns the profile.
   */
  private gate(tool: RegisteredTool, caller: CallerInfo, view: ToolView): Profile {
    const product = tool.plugin.def.product;
    if (product !== null) {
      const lic = this.deps.license();
      const licensed = (lic.state === 'VALID' || lic.state === 'GRACE') && lic.products.includes(product);
      if (!licensed || !tool.plugin.active) {
        throw new LicenseError(
          `the ${product} module is not available: license ${lic.state}${licensed ? '' : `, ${product} not licensed`}`,
        );
      }
    }
    const profile = this.deps.profile(caller.profile);
    if (!profile) throw new ProfilePermissionError(`profile ${caller.profile} is not loaded`);
    if (!toolPermitted(profile, tool.name)) {
      throw new ProfilePermissionError(`profile ${profile.name} does not permit ${tool.name}`);
    }
    if (product !== null && !effectiveProducts(caller.products, profile).includes(product as Product)) {
      throw new ProfilePermissionError(`${product} is outside the product scope of client ${caller.name}`);
    }
    if (!inView(tool, standingView(this.deps.narrowing(caller.name)))) {
      throw new ProfilePermissionError(
        `${tool.name} is outside the toolsets or read-only mode of client ${caller.name} (its client.json)`,
      );
    }
    if (!inView(tool, view)) {
      throw new ProfilePermissionError(
        `${tool.name} is outside the toolsets or read-only mode this connection asked for`,
      );
    }
    return profile;
  }

  /**
   * `operation` and `detail` of the call's records: the tool's own summary, else its allowlist subject.
   * A summary that fails (an input the allowlist is about to refuse) leaves them out.
   */
  private summarise(tool: RegisteredTool, input: Record<string, unknown>): Record<string, string> {
    const access = tool.def.access;
    try {
      const s =
        tool.def.summary?.(input) ??
        ('allowlist' in access ? { operation: access.subject(input) } : undefined);
      if (!s) return {};
      return {
        operation: auditText(String(s.operation)),
        ...(s.detail !== undefined ? { detail: auditText(String(s.detail)) } : {}),
      };
    } catch (err) {
      if (!isKernelError(err)) this.deps.log.warn({ err, tool: tool.name }, 'the call summary failed');
      return {};
    }
  }

  /**
   * Takes one request of the client's window for `service` of the tool's module, before the handler (its
   * declared service) or when the handler first contacts another service. A refusal is audited
   * (RATE_LIMITED, with the call's id), counted, and thrown.
   */
  private async charge(
    tool: RegisteredTool,
    profile: Profile,
    cc: CallContext,
    service: Service,
    call: AuditEntry,
  ): Promise<void> {
    const window = rateWindow(profile, tool.module, service, this.deps.narrowing(cc.caller.name));
    try {
      await this.deps.limiter.take(cc.caller.name, tool.module, service, window);
    } catch (err) {
      // Only a refusal is audited as one; a store that cannot be reached (503) is no rate limit.
      if (!(err instanceof RateLimitedError)) throw err;
      this.deps.metrics.rateLimited.inc({ client: cc.caller.name, product: tool.module, service });
      this.deps.audit.write({
        event: 'RATE_LIMITED',
        status: 'RATE_LIMITED',
        client: cc.caller.name,
        ip: cc.ip,
        call_id: call.call_id,
        tool_name: tool.name,
        product: tool.module,
        service,
        limit: window.limit,
        window_seconds: window.windowSeconds,
        ...(call.host !== undefined ? { host: call.host } : {}),
      });
      throw err;
    }
  }

  /**
   * The handler's view of a multi-round-trip call: what the client declared it can answer, its answers
   * (as sent: untrusted, the tool validates them) and the tool's own state, opened and checked here.
   */
  private toolInput(tool: RegisteredTool, cc: CallContext): ToolInput {
    const declared = cc.input?.capabilities;
    const caps = declared && typeof declared === 'object' ? (declared as Record<string, unknown>) : {};
    const has = (k: string): boolean => caps[k] !== undefined && caps[k] !== null;
    const responses = cc.input?.responses;
    const state = cc.input?.state;
    // URL mode is declared as `elicitation: { url: {} }` (2025-11-25 and later); `{}` alone is form only.
    const elicitation = caps.elicitation;
    const url =
      elicitation !== null &&
      typeof elicitation === 'object' &&
      (elicitation as Record<string, unknown>).url !== undefined &&
      (elicitation as Record<string, unknown>).url !== null;
    return {
      accepts: {
        elicitation: has('elicitation'),
        sampling: has('sampling'),
        roots: has('roots'),
        elicitationUrl: url,
      },
      responses: responses && typeof responses === 'object' ? { ...responses } : {},
      ...(state !== undefined && state !== null
        ? { state: this.states.open({ tool: tool.name, client: cc.caller.name }, state) }
        : {}),
    };
  }

  private context(
    tool: RegisteredTool,
    cc: CallContext,
    node: CallNodeRequests,
    input: ToolInput,
    callId: string,
  ): ToolContext {
    // The logger, vault view and credential pages are built when the handler first reaches for them
    // (then kept for the call): most calls use none of them, and each costs an object graph per call.
    let log: PluginLogger | undefined;
    let vault: ClientVault | undefined;
    let pages: CredentialPages | undefined;
    let changes: ChangeJournalView | undefined;
    let plans: ChangePlans | undefined;
    const deps = this.deps;
    const binding = { client: cc.caller.name, tool: tool.name, product: tool.module, callId };
    return {
      caller: cc.caller,
      get log() {
        return (log ??= deps.log.child({
          plugin: tool.plugin.def.id,
          tool: tool.name,
          client: cc.caller.name,
        }));
      },
      audit: (entry: PluginAuditEntry) => {
        this.deps.audit.write({
          ...entry,
          client: cc.caller.name,
          ip: cc.ip,
          product: entry.product ?? tool.module,
        });
      },
      signal: cc.signal,
      progress: cc.progress ?? (async () => undefined),
      kernel: this.deps.kernel,
      dirs: this.deps.dirs,
      shared: tool.plugin.shared,
      get vault() {
        return (vault ??= deps.vault.forClient(cc.caller.name, { ip: cc.ip }));
      },
      node,
      input,
      get credentialPage() {
        return (pages ??= deps.credentialPages(cc.caller.name));
      },
      get changes() {
        return (changes ??= journalView(deps.changes, binding));
      },
      get plans() {
        return (plans ??= plansView(deps.plans, binding));
      },
      confirmed: (c) => node.confirm(c),
    };
  }
}

function describeIssues(err: z.ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`)
    .join('; ');
}
