import type { RouteInstaller } from '../../app.ts';
import { statusRoutes } from '../status.ts';
import { authorizeRoutes } from './authorize.ts';
import { metadataRoutes } from './metadata.ts';
import { registerRoutes } from './register.ts';
import { revokeRoutes } from './revoke.ts';
import { tokenRoutes } from './token.ts';

/** The authorization server and /status: installed by startup into the kernel's router. */
export const authRoutes: RouteInstaller = (router, rt) => {
  metadataRoutes(router, rt);
  authorizeRoutes(router, rt);
  tokenRoutes(router, rt);
  if (rt.auth.settings.registration.enabled) registerRoutes(router, rt);
  revokeRoutes(router, rt);
  statusRoutes(router, rt);
};
