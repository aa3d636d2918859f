import {
  arch,
  cpus,
  freemem,
  hostname,
  loadavg,
  platform,
  release,
  totalmem,
  type,
  uptime,
  version,
} from 'node:os';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../../paths.ts';
import type { OperatorSettings } from '../settings.ts';

/** Server, runtime and OS versions (functional spec, Versioning 8), plus the machine's size and load. */
export function versionsSection(
  settings: OperatorSettings,
  server: { pid: number } | false | 'unknown',
): Record<string, unknown> {
  const cpuList = cpus();
  return {
    server: {
      package: PACKAGE_NAME,
      version: PACKAGE_VERSION,
      // PROJECT_VERSION is rewritten by upgrades; it may differ from package.json after a partial one.
      project_version: settings.config?.PROJECT_VERSION || settings.dotenv.PROJECT_VERSION || null,
      server_name: settings.config?.SERVER_NAME ?? null,
      running: server,
    },
    runtime: {
      node: process.version,
      v8: process.versions.v8,
      openssl: process.versions.openssl,
      uv: process.versions.uv,
      modules_abi: process.versions.modules,
    },
    os: {
      hostname: hostname(),
      platform: platform(),
      type: type(),
      release: release(),
      version: version(),
      arch: arch(),
      uptime_seconds: Math.round(uptime()),
      cpus: cpuList.length,
      cpu_model: cpuList[0]?.model ?? null,
      memory_total_bytes: totalmem(),
      memory_free_bytes: freemem(),
      load_average: loadavg(),
    },
  };
}
