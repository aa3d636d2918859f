// The CUCM security-audit prompt and its reference resources (security guide, VOS CLI guide).
import {
  markdownFolderResource,
  securityAuditPrompt,
  securityGuideResource,
} from '../../_shared/audit/definitions.ts';
import type { PromptDefinition, ResourceDefinition } from '../../../kernel/sdk/index.ts';
import { CUCM_CHECKLIST } from './checklist.ts';

export const cucmAuditPrompts: PromptDefinition[] = [securityAuditPrompt(CUCM_CHECKLIST)];

export const cucmAuditResources: ResourceDefinition[] = [
  securityGuideResource(CUCM_CHECKLIST),
  markdownFolderResource({
    uriTemplate: 'cucm://cli-guide/{topic}',
    name: 'cucm-cli-guide',
    title: 'CUCM VOS CLI guide (project reference)',
    description:
      'The VOS CLI commands the CUCM tools and the security audit use, one document per topic: syntax, output shape, risk, and which default profiles allow them.',
    dir: `${import.meta.dirname}/cli-guide`,
  }),
];
