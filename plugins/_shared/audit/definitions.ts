// The prompt and resource declarations every product plugin's audit uses, from its checklist and its
// folder of reference documents.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  NotFoundError,
  definePrompt,
  defineResource,
  type PromptDefinition,
  type ResourceDefinition,
} from '../../../kernel/sdk/index.ts';
import type { Checklist } from './checklist.ts';
import { guideMembers, renderGuideChapter } from './guide.ts';
import { renderAuditPrompt } from './render-prompt.ts';
import { reportArgument, reportName } from './report-steps.ts';

/** `<product>_security_audit`: admin and auditor only (an operator's profile lacks the read allowlists). */
export function securityAuditPrompt(checklist: Checklist): PromptDefinition {
  const topics = checklist.topics.map((t) => t.id);
  return definePrompt({
    name: checklist.prompt,
    title: checklist.title,
    description: `Automated security audit of a ${checklist.product.toUpperCase()} node against the ${checklist.guide}: ${checklist.checks.length} checks in ${topics.length} topics, evidence from read-only tool calls, a resumable Markdown report and its PDF.`,
    profiles: ['admin', 'auditor'],
    arguments: [
      {
        name: 'host',
        description: `The ${checklist.product.toUpperCase()} node or cluster to audit, as its credentials are stored (see ${checklist.product}_list_credentials)`,
        required: true,
      },
      reportArgument([`${checklist.prompt}.md`, `${checklist.product}-audit.md`]),
      {
        name: 'scope',
        description: `all (default), or topic ids separated by commas: ${topics.join(', ')}`,
        required: false,
        complete: (prefix) => ['all', ...topics].filter((t) => t.startsWith(prefix)),
      },
    ],
    render(args) {
      const host = args.host ?? '';
      const report = reportName(checklist.prompt, host, args.report);
      return [
        { role: 'user', text: renderAuditPrompt(checklist, { host, report, scope: args.scope ?? 'all' }) },
      ];
    },
  });
}

/** `<product>://security-guide/{chapter}`: one chapter per checklist topic. */
export function securityGuideResource(checklist: Checklist): ResourceDefinition {
  return defineResource({
    uri: `${checklist.product}://security-guide/{chapter}`,
    name: `${checklist.product}-security-guide`,
    title: `${checklist.product.toUpperCase()} security guide (project summary)`,
    description: `The controls the ${checklist.prompt} prompt checks, one chapter per topic: why, how it is verified, when it is a finding, remediation.`,
    mimeType: 'text/markdown',
    list: () => guideMembers(checklist),
    read: (_uri, vars) => renderGuideChapter(checklist, vars.chapter ?? ''),
  });
}

/**
 * A template resource over a folder of Markdown files: `<dir>/<name>.md` is `<uriPrefix>{name}`. The
 * member list is the folder's files; the first `# ` line is a member's title.
 */
export function markdownFolderResource(o: {
  uriTemplate: string;
  name: string;
  title: string;
  description: string;
  dir: string;
}): ResourceDefinition {
  const members = (): { name: string; title: string }[] =>
    existsSync(o.dir)
      ? readdirSync(o.dir)
          .filter((f) => /^[a-z0-9-]+\.md$/.test(f))
          .sort()
          .map((f) => {
            const text = readFileSync(join(o.dir, f), 'utf8');
            return { name: f.slice(0, -3), title: /^# (.+)$/m.exec(text)?.[1] ?? f.slice(0, -3) };
          })
      : [];
  return defineResource({
    uri: o.uriTemplate,
    name: o.name,
    title: o.title,
    description: o.description,
    mimeType: 'text/markdown',
    list: members,
    read: (_uri, vars) => {
      const name = Object.values(vars)[0] ?? '';
      if (!/^[a-z0-9-]{1,64}$/.test(name) || !members().some((m) => m.name === name))
        throw new NotFoundError(
          `no document ${name.slice(0, 64)}; available: ${members()
            .map((m) => m.name)
            .join(', ')}`,
        );
      return readFileSync(join(o.dir, `${name}.md`), 'utf8');
    },
  });
}

/** A fixed resource read from one Markdown file (e.g. `cuc://cupi/reference`). */
export function markdownFileResource(o: {
  uri: string;
  name: string;
  title: string;
  description: string;
  file: string;
}): ResourceDefinition {
  return defineResource({
    uri: o.uri,
    name: o.name,
    title: o.title,
    description: o.description,
    mimeType: 'text/markdown',
    read: () => readFileSync(o.file, 'utf8'),
  });
}
