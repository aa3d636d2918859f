// A guided troubleshooting workflow as data: steps of read-only tool calls, each with what its answer
// means and where to go next. The prompt is rendered from it, and the tests check every tool it names
// against what ships and what the prompt's profiles may call.
import {
  BadRequestError,
  definePrompt,
  type Product,
  type PromptDefinition,
} from '../../../kernel/sdk/index.ts';
import { bindVars, type Reference } from '../audit/checklist.ts';
import { citationLines } from '../audit/citations.ts';

export interface WorkflowCall {
  tool: string;
  /** `{host}` and `{device}` stand for the prompt's arguments. */
  args: Record<string, unknown>;
  purpose: string;
  /** Set when an argument comes from an earlier answer: which one, in words (the args hold a stand-in). */
  fillIn?: string;
}

export interface WorkflowStep {
  title: string;
  calls: WorkflowCall[];
  /** What each kind of answer means, and what to look at next. */
  decisions: string[];
  references: Reference[];
}

export interface Workflow {
  product: Product;
  prompt: string;
  title: string;
  description: string;
  /** Who may get it: every profile that may make every call (the tests hold it to that). */
  profiles: string[];
  steps: WorkflowStep[];
}

const DEVICE = /^[A-Za-z0-9*._:-]{1,64}$/;

/** The step's arguments with the prompt's own in place of `{host}` and `{device}`. */
export function bindWorkflowArgs(
  args: Record<string, unknown>,
  host: string,
  device: string,
): Record<string, unknown> {
  return bindVars(args, { host, device });
}

export function renderWorkflow(w: Workflow, a: { host: string; device: string; symptom: string }): string {
  if (!DEVICE.test(a.device))
    throw new BadRequestError('device must be a device name or a pattern with * (letters, digits, . _ : -)');
  const lines = [
    `# ${w.title}: ${a.host}`,
    '',
    `You are finding out why \`${a.device}\` on the ${w.product.toUpperCase()} cluster of \`${a.host}\` does not register or misbehaves. ` +
      'Follow the steps in order with the read-only calls given; after each, decide from its answer as described, and say what you saw. ' +
      'Change nothing: a fix (restarting a service, changing a device) is proposed to the user, never made here.',
    ...(a.symptom ? ['', `Reported symptom (the user's words): ${a.symptom.slice(0, 500)}`] : []),
  ];
  w.steps.forEach((s, i) => {
    lines.push('', `## Step ${i + 1}: ${s.title}`);
    for (const c of s.calls)
      lines.push(
        `- \`${c.tool}\` ${JSON.stringify(bindWorkflowArgs(c.args, a.host, a.device))}: ${c.purpose}${c.fillIn ? ` (${c.fillIn})` : ''}`,
      );
    lines.push('What it means:', ...s.decisions.map((d) => `- ${d}`));
    const refs = citationLines(s);
    if (refs.length > 0) lines.push('Sources:', ...refs.map((r) => `- ${r}`));
  });
  lines.push(
    '',
    '## Finish',
    'Tell the user what you found, step by step: the device state, the nodes and services involved, the trace lines that explain it, and the fix you propose (who should make it, with which tool).',
  );
  return lines.join('\n');
}

export function workflowPrompt(w: Workflow): PromptDefinition {
  return definePrompt({
    name: w.prompt,
    title: w.title,
    description: w.description,
    profiles: w.profiles,
    arguments: [
      {
        name: 'host',
        description: `A ${w.product.toUpperCase()} node of the cluster, as its credentials are stored (see ${w.product}_list_credentials)`,
        required: true,
      },
      {
        name: 'device',
        description: 'The device name, or a pattern with * (e.g. SEP0011*); default * (every device)',
        required: false,
      },
      { name: 'symptom', description: 'What the user sees, in their words (optional)', required: false },
    ],
    render(args) {
      const text = renderWorkflow(w, {
        host: args.host ?? '',
        device: args.device?.trim() || '*',
        symptom: args.symptom?.trim() ?? '',
      });
      return [{ role: 'user', text }];
    },
  });
}
