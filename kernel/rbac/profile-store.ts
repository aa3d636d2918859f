import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { AppLogger } from '../logging/app-log.ts';
import { profileSchema, type Profile } from './profile-schema.ts';

/**
 * The live RBAC profiles (profiles/*.json), hot-reloaded. A file that fails to parse or validate
 * keeps the last good version of that profile in force, and the reason goes to app.log; a deleted
 * file likewise keeps its last good version (removing a profile is done by reassigning clients).
 */
export class ProfileStore {
  private readonly profiles = new Map<string, Profile>();
  private watcher: FSWatcher | undefined;
  private readonly listeners = new Set<(name: string) => void>();
  /** Each profile's file as last loaded: what `refresh` compares with. */
  private readonly loadedText = new Map<string, string>();

  constructor(
    private readonly dir: string,
    private readonly log: AppLogger,
  ) {}

  /** Loads every profile; a bad file at startup is logged and skipped (clients naming it are refused). */
  loadAll(): { loaded: string[]; rejected: string[] } {
    const loaded: string[] = [];
    const rejected: string[] = [];
    for (const f of readdirSync(this.dir)
      .filter((x) => x.endsWith('.json'))
      .sort()) {
      (this.reload(join(this.dir, f)) ? loaded : rejected).push(basename(f, '.json'));
    }
    return { loaded, rejected };
  }

  /** Starts watching the folder; resolves once the watcher is ready. */
  async watch(): Promise<void> {
    this.watcher = watch(this.dir, {
      ignoreInitial: true,
      depth: 0,
      awaitWriteFinish: { stabilityThreshold: 150, pollInterval: 50 },
    });
    const onFile = (path: string): void => {
      if (path.endsWith('.json')) this.reload(path);
    };
    this.watcher.on('add', onFile).on('change', onFile);
    this.watcher.on('unlink', (path: string) => {
      if (path.endsWith('.json')) {
        this.log.warn(
          { profile: basename(path, '.json') },
          'profile file removed; its last good version stays in force',
        );
      }
    });
    this.watcher.on('error', (err: unknown) => this.log.error({ err }, 'profile watcher error'));
    await new Promise<void>((resolve) => this.watcher?.once('ready', () => resolve()));
  }

  async close(): Promise<void> {
    await this.watcher?.close();
  }

  get(name: string): Profile | undefined {
    return this.profiles.get(name);
  }

  names(): string[] {
    return [...this.profiles.keys()].sort();
  }

  onChange(listener: (name: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Reads `name`'s file again when it differs from what was last loaded: another instance saw it change
   * (a shared volume's changes need not reach this host's file watcher). True when it was reloaded, so
   * a notice about a change already seen here changes nothing and is not passed on again.
   */
  refresh(name: string): boolean {
    if (basename(name) !== name || name.startsWith('.')) return false;
    const path = join(this.dir, `${name}.json`);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return false;
    }
    if (this.loadedText.get(name) === text) return false;
    return this.reload(path);
  }

  private reload(path: string): boolean {
    const expected = basename(path, '.json');
    let parsed: Profile;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
      const raw = JSON.parse(text) as unknown;
      const result = profileSchema.safeParse(raw);
      if (!result.success) {
        const issue = result.error.issues[0];
        throw new Error(`${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
      }
      parsed = result.data;
      if (parsed.name !== expected)
        throw new Error(`name "${parsed.name}" does not match the file name "${expected}"`);
    } catch (err) {
      const kept = this.profiles.has(expected);
      this.log.error(
        { profile: expected, file: path, reason: (err as Error).message, keptLastGood: kept },
        kept
          ? 'invalid profile file; the last good version stays in force'
          : 'invalid profile file; profile not loaded',
      );
      return false;
    }
    this.profiles.set(expected, parsed);
    this.loadedText.set(expected, text);
    this.log.info({ profile: expected }, 'profile loaded');
    for (const l of this.listeners) l(expected);
    return true;
  }
}
