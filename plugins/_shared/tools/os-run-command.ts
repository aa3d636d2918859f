import {
  ProfilePermissionError,
  structuredReply,
  toolsFor,
  z,
  type Product,
} from '../../../kernel/sdk/index.ts';
import { CHANGE_CLASS_NOTE, classifyCli } from '../changes/classify.ts';
import { cliChangeAdapter } from '../changes/cli-adapter.ts';
import { gateChange } from '../changes/gate.ts';
import { validateCommand } from '../vos/command-policy.ts';
import { hostField } from './credential-input.ts';
import { GATE_NOTE, gateInput, gateOutput, gateReply } from './gate-fields.ts';
import type { VosState } from './plugin-state.ts';
import { A_PRODUCT } from './product-labels.ts';
import { osRunCommandOutput } from './output-shapes.ts';

/** `<product>_os_run_command`: one VOS CLI command in the pooled interactive shell of a node. */
export function osRunCommandTool(product: Product, trustTool: string) {
  return toolsFor<VosState>()({
    name: 'os_run_command',
    title: `Run ${A_PRODUCT[product]} VOS CLI command`,
    description: `Runs one VOS CLI command line over SSH (e.g. show version active), as your SSH allowlist permits. A (y/n) question is answered n unless confirm (admin only). A new node's host key must first be trusted with ${trustTool}. ${CHANGE_CLASS_NOTE} Show, file list/view and other read-only commands are read; utils service start and set trace are changes; stopping or restarting services or the node, set, unset, delete, file delete, database replication resets and any command the table does not name are destructive. ${GATE_NOTE} confirm is separate: it only answers the command's own (y/n) question.`,
    input: {
      host: hostField,
      command: z.string().min(1).max(512),
      confirm: z.boolean().default(false).describe('Answer "y" to a (y/n) question (admin only)'),
      timeout_s: z
        .number()
        .int()
        .min(1)
        .max(900)
        .optional()
        .describe('Seconds to allow (default per command)'),
      ...gateInput,
    },
    output: { ...osRunCommandOutput, ...gateOutput },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    access: { allowlist: 'ssh', subject: (i) => validateCommand(i.command) },
    service: 'ssh',
    summary: (i) => ({
      operation: validateCommand(i.command),
      ...(i.confirm ? { detail: 'confirm: answers "y" to a (y/n) question' } : {}),
    }),
    async handler(input, ctx) {
      if (input.confirm && ctx.caller.profile !== 'admin')
        throw new ProfilePermissionError('only the admin profile may confirm (y/n) questions of the CLI');
      const command = validateCommand(input.command);
      const shells = ctx.shared.shells;
      const out = await gateChange(
        ctx,
        cliChangeAdapter(shells, ctx.vault, product, ctx.signal),
        input,
        () =>
          shells.run(ctx.vault, product, input.host, input.command, {
            confirm: input.confirm,
            signal: ctx.signal,
            ...(input.timeout_s ? { timeoutMs: input.timeout_s * 1000 } : {}),
          }),
        { host: input.host },
      );
      const base = { host: input.host, command, change_class: classifyCli(command).class };
      return gateReply(out, base, (r) =>
        structuredReply({
          ...base,
          command: r.command,
          output: r.output,
          truncated: r.truncated,
          reused_shell: r.reusedShell,
          duration_ms: r.durationMs,
        }),
      );
    },
  });
}
