import {
  BadRequestError,
  NotFoundError,
  PayloadTooLargeError,
  ProfilePermissionError,
} from '../errors/index.ts';
import type { LoadedPlugin, PluginRegistry } from '../plugins/registry.ts';
import type { OwnedFileInfo, OwnedFilesDefinition } from '../sdk/define.ts';
import type { SharedFile } from '../sdk/kernel-services.ts';
import type { CallerInfo } from '../sdk/types.ts';
import type { DownloadLinks, LinkRefusal } from './download-links.ts';
import { filesTemplate } from './file-templates.ts';

/** Longest URI of an owned file accepted (scheme, client name and file name fit well within). */
export const MAX_URI_CHARS = 512;
/** A caller's files listed by resources/list at most (the newest); the rest are read by name. */
export const MAX_LISTED = 100;

/** A client or file name: what the stores write, so never anything that needs encoding. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

export interface OwnedFilesDeps {
  registry: PluginRegistry;
  /** Whether the caller may call this tool (profile and product scope): reading its files needs it. */
  mayCall(caller: CallerInfo, tool: string): boolean;
  /**
   * Charges one call of that tool's rate-limit window (RATE_LIMITED when spent): a read hands over up
   * to REPORT_READ_MAX_BYTES, so reading is limited like the read tool.
   */
  charge(caller: CallerInfo, tool: string): Promise<void>;
  /** REPORT_READ_MAX_BYTES: the largest file read or downloaded whole. */
  maxReadBytes: number;
  links: DownloadLinks;
  /** The server's public base URL (known once it listens). */
  publicBaseUrl(): string;
}

interface Provider {
  plugin: LoadedPlugin;
  def: OwnedFilesDefinition;
  readTool: string;
}

export type OwnedFileContents =
  { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string };

export interface DownloadedFile {
  client: string;
  name: string;
  mimeType: string;
  bytes: Uint8Array;
}

/**
 * Files plugins keep per client (`<scheme>://<client>/<name>`), served to their owner only: through
 * resources/read, resources/list and one-time download links. Everything about who may see what is
 * decided here, once; a plugin only finds its files. Another client's file is answered exactly as a
 * missing one, so nobody learns which files others have.
 */
export class OwnedFiles {
  constructor(private readonly d: OwnedFilesDeps) {}

  /** Every scheme a registered plugin serves (its download route exists while the server runs). */
  schemes(): string[] {
    return [...new Set(this.providers(false).map((p) => p.def.scheme))];
  }

  /** Whether `uri` belongs to owned files (its scheme is one a plugin serves); others are documents. */
  claims(uri: string): boolean {
    return this.providers(true).some((p) => uri.startsWith(`${p.def.scheme}://`));
  }

  async read(caller: CallerInfo, uri: string): Promise<OwnedFileContents> {
    const { provider, client, name } = this.parse(uri);
    if (!this.d.mayCall(caller, provider.readTool))
      throw new ProfilePermissionError(`your profile may not read ${provider.def.scheme} files`);
    await this.d.charge(caller, provider.readTool);
    const info = client === caller.name ? this.stat(provider, client, name) : null;
    if (!info) throw new NotFoundError(`nothing at ${uri}`);
    const bytes = await this.readBounded(provider, client, info, 'resources/read');
    const canonical = `${provider.def.scheme}://${client}/${info.name}`;
    return isText(info.mimeType)
      ? { uri: canonical, mimeType: info.mimeType, text: Buffer.from(bytes).toString('utf8') }
      : { uri: canonical, mimeType: info.mimeType, blob: Buffer.from(bytes).toString('base64') };
  }

  /** The caller's own files, newest first, at most MAX_LISTED per scheme; none without the permission. */
  list(caller: CallerInfo): { uri: string; name: string; mimeType: string; size: number }[] {
    return this.providers(true)
      .filter((p) => this.d.mayCall(caller, p.readTool))
      .flatMap((p) =>
        p.def
          .list(caller.name, p.plugin.shared)
          .slice(0, MAX_LISTED)
          .map((f) => ({
            uri: `${p.def.scheme}://${caller.name}/${f.name}`,
            name: f.name,
            mimeType: f.mimeType,
            size: f.size,
          })),
      );
  }

  /** The URI templates, for callers who may read the files. */
  templates(caller: CallerInfo): { uriTemplate: string; name: string; title: string; description: string }[] {
    return this.providers(true)
      .filter((p) => this.d.mayCall(caller, p.readTool))
      .map((p) => filesTemplate(p.def));
  }

  share(caller: CallerInfo, scheme: string, name: string): SharedFile {
    const provider = this.providers(true).find((p) => p.def.scheme === scheme);
    if (!provider) throw new NotFoundError(`no files of kind ${scheme.slice(0, 32)}`);
    const info = this.stat(provider, caller.name, checkSegment(name, 'file name'));
    if (!info) throw new NotFoundError(`you have no ${scheme} named ${name}`);
    const uri = `${scheme}://${caller.name}/${info.name}`;
    const { token, expiresAt } = this.d.links.issue({ scheme, client: caller.name, name: info.name });
    const base = this.d.publicBaseUrl().replace(/\/+$/, '');
    return {
      link: { type: 'resource_link', uri, name: info.name, mimeType: info.mimeType, size: info.size },
      downloadUrl: `${base}/${scheme}s/download/${token}`,
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /**
   * What a download link gives, consuming the link. Every refusal is the same NOT_FOUND (a used, an
   * expired and a forged link look alike to whoever holds one); `refused` hears why, for the log.
   */
  async download(
    scheme: string,
    token: string,
    opts: { consume: boolean; refused: (why: LinkRefusal) => void },
  ): Promise<DownloadedFile> {
    const gone = new NotFoundError('no such download link: links work once, for a few minutes');
    const grant = opts.consume ? await this.d.links.take(token) : this.d.links.peek(token);
    if (typeof grant === 'string') {
      opts.refused(grant);
      throw gone;
    }
    const provider = this.providers(true).find((p) => p.def.scheme === grant.scheme);
    if (!provider || grant.scheme !== scheme) throw gone;
    const info = this.stat(provider, grant.client, grant.name);
    if (!info) throw gone;
    const bytes = opts.consume
      ? await this.readBounded(provider, grant.client, info, 'the download link')
      : new Uint8Array(0);
    return { client: grant.client, name: info.name, mimeType: info.mimeType, bytes };
  }

  private parse(uri: string): { provider: Provider; client: string; name: string } {
    if (uri.length > MAX_URI_CHARS)
      throw new BadRequestError(`the URI is longer than ${MAX_URI_CHARS} characters`);
    // Plain printable ASCII, no percent-encoding: names never need it, so an encoded slash or dot, a
    // look-alike character or a control character can only be a trick.
    if (!/^[\x21-\x7e]+$/.test(uri) || /[%?#\\]/.test(uri))
      throw new BadRequestError(
        'a file URI is <scheme>://<client>/<name> in plain ASCII letters, digits, ".", "_" and "-", without encoding',
      );
    const provider = this.providers(true).find((p) => uri.startsWith(`${p.def.scheme}://`));
    if (!provider) throw new NotFoundError(`nothing at ${uri}`);
    const rest = uri.slice(provider.def.scheme.length + 3).split('/');
    if (rest.length !== 2)
      throw new BadRequestError(`a ${provider.def.scheme} URI is ${provider.def.scheme}://<client>/<name>`);
    return {
      provider,
      client: checkSegment(rest[0] as string, 'client name'),
      name: checkSegment(rest[1] as string, 'file name'),
    };
  }

  private stat(p: Provider, client: string, name: string): OwnedFileInfo | null {
    return p.def.stat(client, name, p.plugin.shared);
  }

  private async readBounded(
    p: Provider,
    client: string,
    info: OwnedFileInfo,
    via: string,
  ): Promise<Uint8Array> {
    const max = this.d.maxReadBytes;
    const tooLarge = (size: number) =>
      new PayloadTooLargeError(
        `${info.name} is ${size} bytes; the largest handed over by ${via} is ${max} (REPORT_READ_MAX_BYTES)`,
      );
    if (info.size > max) throw tooLarge(info.size);
    const bytes = await p.def.read(client, info.name, p.plugin.shared);
    // It may have grown since it was looked at.
    if (bytes.length > max) throw tooLarge(bytes.length);
    return bytes;
  }

  private providers(activeOnly: boolean): Provider[] {
    return [...this.d.registry.plugins.values()]
      .filter((plugin) => !activeOnly || plugin.active)
      .flatMap((plugin) =>
        (plugin.def.files ?? []).map((def) => ({
          plugin,
          def: def as OwnedFilesDefinition,
          readTool: `${plugin.def.module}_${def.readTool}`,
        })),
      );
  }
}

function checkSegment(value: string, what: string): string {
  if (!SEGMENT.test(value))
    throw new BadRequestError(
      `the ${what} must be 1-128 letters, digits, ".", "_" or "-", not starting with "."`,
    );
  return value;
}

function isText(mimeType: string): boolean {
  return mimeType.startsWith('text/');
}
