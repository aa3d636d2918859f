// The hostile VOS CLI: a shell that never shows the prompt, or stops answering commands. The shells it
// holds are counted until the client hangs up, so a test can see that nothing was left hanging.
import type { ServerChannel } from 'ssh2';
import type { HostileSwitches } from './switches.ts';

export interface ShellGuard {
  /** True when the attack takes a new shell over: the banner, then silence (the CLI never starts). */
  takeOver(channel: ServerChannel): boolean;
  /** True when input to a running CLI is to be read and dropped. */
  swallow(channel: ServerChannel): boolean;
}

export function shellGuard(switches: HostileSwitches, node: string): ShellGuard {
  const held = new WeakSet<ServerChannel>();
  const hold = (channel: ServerChannel): void => {
    if (held.has(channel)) return;
    held.add(channel);
    switches.stats.sshStuckOpen++;
    switches.stats.sshStuckTotal++;
    channel.once('close', () => {
      switches.stats.sshStuckOpen--;
    });
  };
  return {
    takeOver(channel) {
      if (switches.for(node).ssh !== 'no-prompt') return false;
      hold(channel);
      channel.on('data', () => undefined);
      channel.write('Command Line Interface is starting up, please wait ...\r\n');
      return true;
    },
    swallow(channel) {
      if (switches.for(node).ssh !== 'no-answer') return false;
      hold(channel);
      return true;
    },
  };
}
