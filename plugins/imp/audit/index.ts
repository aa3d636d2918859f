// The IM&P security-audit prompt and its reference resources (security guide, VOS CLI guide).
import {
  markdownFolderResource,
  securityAuditPrompt,
  securityGuideResource,
} from '../../_shared/audit/definitions.ts';
import type { PromptDefinition, ResourceDefinition } from '../../../kernel/sdk/index.ts';
import { IMP_CHECKLIST } from './checklist.ts';

export const impAuditPrompts: PromptDefinition[] = [securityAuditPrompt(IMP_CHECKLIST)];

export const impAuditResources: ResourceDefinition[] = [
  securityGuideResource(IMP_CHECKLIST),
  markdownFolderResource({
    uriTemplate: 'imp://cli-guide/{topic}',
    name: 'imp-cli-guide',
    title: 'IM and Presence VOS CLI guide (project reference)',
    description:
      'The VOS CLI commands the IM and Presence tools and the security audit use, one document per topic: syntax, output shape, risk, and which default profiles allow them.',
    dir: `${import.meta.dirname}/cli-guide`,
  }),
];
