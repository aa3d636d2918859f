import type { AppLogger } from '../../logging/app-log.ts';
import type { StateBackend } from './state-backend.ts';

/** The channels of the notices between instances. */
export const PROFILES_CHANNEL = 'profiles-changed';
export const LICENSE_CHANNEL = 'license-changed';

export interface NoticeSources {
  profiles: {
    onChange(listener: (name: string) => void): () => void;
    /** Reloads the profile if its file differs from what was loaded; true when it did. */
    refresh(name: string): boolean;
  };
  license: {
    onChange(listener: () => void): () => void;
    load(): Promise<unknown>;
  };
}

/**
 * With a shared store, an instance that sees a profile or the license change tells the others, which
 * read it again; each then sends its own sessions their list_changed notifications (through the same
 * listeners a local change reaches). A notice only follows a real change: a profile is passed on when
 * its reload changed it, the license when its evaluation changed, so the notices die out after one
 * round. The local backend has no other instance to tell: nothing is wired. Returns the unwiring.
 */
export function shareChangeNotices(state: StateBackend, src: NoticeSources, log: AppLogger): () => void {
  if (state.kind === 'local') return () => undefined;
  const tell = (channel: string, message: string): void => {
    state.bus.publish(channel, message).catch((err: unknown) =>
      // Lost while the store is down; each instance's own watchers still see the files.
      log.warn({ err, channel }, 'a change notice could not be sent to the other instances'),
    );
  };
  const offs = [
    src.profiles.onChange((name) => tell(PROFILES_CHANNEL, name)),
    src.license.onChange(() => tell(LICENSE_CHANNEL, 'changed')),
    state.bus.subscribe(PROFILES_CHANNEL, (name) => {
      if (src.profiles.refresh(name))
        log.info({ profile: name }, 'profile reloaded on another instance notice');
    }),
    state.bus.subscribe(LICENSE_CHANNEL, () => {
      src.license
        .load()
        .catch((err: unknown) => log.error({ err }, 'license re-evaluation after a notice failed'));
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}
