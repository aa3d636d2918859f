/**
 * The plugin SDK: the only kernel module a plugin imports. Declarations (definePlugin, defineTool,
 * definePrompt, defineResource), the types of the context handed to handlers, and the coded errors a
 * plugin may throw.
 */
export {
  defineTool,
  toolsFor,
  definePrompt,
  defineResource,
  definePlugin,
  textReply,
  structuredReply,
  inputRequired,
  type ToolDefinition,
  type ToolInput,
  type CredentialPages,
  type CredentialPageRequest,
  type CredentialPageLink,
  type CredentialPageState,
  type PromptDefinition,
  type PromptMessage,
  type ResourceDefinition,
  type OwnedFilesDefinition,
  type OwnedFileInfo,
  type PluginDefinition,
  type PluginServices,
  type PluginDirs,
  type PluginSettings,
  type NodeIoSettings,
  type CdrTransferSettings,
  type ReportLimitSettings,
  type ToolContext,
} from './define.ts';
export type {
  Module,
  PluginModule,
  PromptContent,
  Product,
  Service,
  AllowlistService,
  BuiltinProfile,
  ToolAccess,
  ToolAnnotations,
  ToolCallSummary,
  ToolReply,
  ContentBlock,
  ResourceLink,
  InputRequest,
  InputRequired,
  CallerInfo,
  NodeService,
  NodeRequest,
  NodeRequests,
  NodeRequestTicket,
  PluginAuditEntry,
  PluginLogger,
  ZodShape,
} from './types.ts';
export { PRODUCTS } from './types.ts';
/** Change classes and the profile's `writes` setting (the table of classes is plugins/_shared/changes/). */
export {
  CHANGE_CLASSES,
  WRITE_MODES,
  needsConfirmation,
  previewOnly,
  type ChangeClass,
  type WritesSetting,
} from '../rbac/writes.ts';
/** The running tool call's node-request account, for shared clients that are not handed ctx. */
export { currentNodeRequests } from './node-requests.ts';
/** The change journal and preview plans of a tool call (`ctx.changes`, `ctx.plans`). Kernel 1.4. */
export type {
  ChangeJournalView,
  ChangePlans,
  ChangeEntry,
  ChangeRecord,
  ChangeFilter,
  ChangePage,
  ChangeObject,
  ChangeKind,
  ChangeOutcome,
  ChangeConfirmation,
  IssuedPlan,
} from './changes.ts';
export type {
  KernelServices,
  CatalogueTool,
  CataloguePrompt,
  CatalogueDoc,
  PermissionMatrix,
  RateLimitsRemaining,
  SharedState,
  SharedFile,
} from './kernel-services.ts';
/** Coded errors a plugin throws; the runner turns exposed ones into `CODE: message` tool errors. */
export {
  KernelError,
  isKernelError,
  BadRequestError,
  NotFoundError,
  CredentialError,
  ConnectivityError,
  AXLError,
  SSHError,
  RISError,
  ServiceabilityError,
  CUPIError,
  ProfilePermissionError,
  PayloadTooLargeError,
  ExportUnavailableError,
  ReportTooComplexError,
  ReportQuotaExceededError,
  PlanNotFoundError,
  PlanExpiredError,
  PlanUsedError,
  PlanMismatchError,
  ChangedSincePreviewError,
  ConfirmationRequiredError,
  ConfirmationDeclinedError,
  NoInverseError,
  AlreadyUndoneError,
  ChangedSinceChangeError,
  JournalUnavailableError,
} from '../errors/index.ts';
/** The caller's vault view, SSH host-key trust on first use, and its errors. */
export {
  hostVerifier,
  HostKeyError,
  CertificateTrustError,
  type CertificateStatus,
  normaliseHost,
  sshHost,
  sshFingerprint,
  type ClientVault,
  type CredentialEntry,
  type CredentialSecret,
  type TofuHostVerifier,
} from '../vault/index.ts';
/** The connection options of a credential: their checks, and where a credential makes the server connect. */
export { NODE_PORTS, checkCertificatePem, credentialTarget, splitAddress } from '../vault/index.ts';
/**
 * The node address policy (`ctx.kernel.nodeAddresses`): every connection toward a managed node takes
 * its `dialOptions`; DENY_LIST_ONLY is what a client gets when none was handed to it.
 */
export { NodeAddressDeniedError } from '../errors/index.ts';
export { DENY_LIST_ONLY, type NodeAddressGuard } from '../net/node-address-policy.ts';
/** Atomic file writes (temp, fsync, rename) for plugin state; the async one for files of megabytes. */
export { writeFileAtomic, writeFileAtomicAsync } from '../store/atomic-file.ts';
/** Re-exported so plugins use the same zod instance as the kernel. */
export { z } from 'zod';
