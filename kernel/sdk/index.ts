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
  type ToolDefinition,
  type PromptDefinition,
  type ResourceDefinition,
  type PluginDefinition,
  type PluginServices,
  type PluginDirs,
  type PluginSettings,
  type NodeIoSettings,
  type ToolContext,
} from './define.ts';
export type {
  Module,
  Product,
  Service,
  AllowlistService,
  BuiltinProfile,
  ToolAccess,
  ToolAnnotations,
  ToolReply,
  ContentBlock,
  CallerInfo,
  PluginAuditEntry,
  PluginLogger,
  ZodShape,
} from './types.ts';
export { PRODUCTS } from './types.ts';
export type {
  KernelServices,
  CatalogueTool,
  CataloguePrompt,
  CatalogueDoc,
  PermissionMatrix,
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
  CUPIError,
  ProfilePermissionError,
  PayloadTooLargeError,
  ExportUnavailableError,
} from '../errors/index.ts';
/** The caller's vault view, SSH host-key trust on first use, and its errors. */
export {
  hostVerifier,
  HostKeyError,
  sshFingerprint,
  type ClientVault,
  type CredentialEntry,
  type CredentialSecret,
  type TofuHostVerifier,
} from '../vault/index.ts';
/** Atomic file writes (temp, fsync, rename) for plugin state. */
export { writeFileAtomic } from '../store/atomic-file.ts';
/** Re-exported so plugins use the same zod instance as the kernel. */
export { z } from 'zod';
