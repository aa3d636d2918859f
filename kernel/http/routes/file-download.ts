import type { RouteInstaller } from '../app.ts';
import type { OwnedFiles } from '../../files/owned-files.ts';
import { ipGuard } from '../middleware/ip-guard.ts';
import { routeLabel } from '../middleware/route-label.ts';

/**
 * GET /<scheme>s/download/<token> (e.g. /reports/download/...): a client's file through a one-time link
 * a tool handed it (`ctx.kernel.shareFile`). No bearer token: a browser following the link has none,
 * so the link is the authorization (see DownloadLinks). The file goes out as an attachment that no
 * browser renders or sniffs in the server's origin. A forged or malformed link counts toward the IP
 * blacklist like a failed login; a used or expired one (it was genuine) does not.
 */
export function fileDownloadRoutes(files: OwnedFiles): RouteInstaller {
  return (router, rt) => {
    for (const scheme of files.schemes()) {
      const route = `/${scheme}s/download/:token`;
      // GET answers HEAD too: a HEAD (a link preview) checks the link without using it up.
      router.get(route, routeLabel(route), ipGuard(rt), async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Content-Security-Policy', "sandbox; default-src 'none'");
        ctx.set('Referrer-Policy', 'no-referrer');
        const head = ctx.method === 'HEAD';
        const file = await files.download(scheme, String(ctx.params.token), {
          consume: !head,
          refused: (why) => {
            rt.log.info({ ip: ctx.state.ip, route, why }, 'download link refused');
            if (why === 'forged' || why === 'malformed') void rt.auth.blacklist.recordFailure(ctx.state.ip);
          },
        });
        ctx.set('Content-Disposition', `attachment; filename="${file.name}"`);
        ctx.type = file.mimeType;
        if (head) {
          ctx.status = 200;
          return;
        }
        // Recorded before the bytes go out: a download that cannot be audited does not happen.
        rt.audit.write({
          event: 'EXPORTED',
          status: 'DOWNLOADED',
          client: file.client,
          ip: ctx.state.ip,
          file: `${scheme}://${file.client}/${file.name}`,
          bytes: file.bytes.length,
        });
        ctx.body = Buffer.from(file.bytes);
      });
    }
  };
}
