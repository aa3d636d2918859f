import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticateEndUser } from '../cucm/db/credentials.ts';
import { USER_CONTROLS_DEVICE } from '../cucm/db/schema.ts';
import type { PhoneModel } from '../cucm/db/types.ts';
import { basicCredentials, requestPath, send, sendUnauthorized } from '../http/request.ts';
import type { Database } from '../informix/database.ts';
import type { LabLog } from '../state/log.ts';
import { escapeXml } from '../xml/write.ts';
import { encodeBmp, encodePng } from './encode.ts';
import { renderScreen } from './screen.ts';
import type { PhoneState } from './state.ts';

export interface PhoneOptions {
  state: PhoneState;
  model: PhoneModel;
  /** The CUCM database: the phone asks CUCM whether the user controls it, as the authentication URL does. */
  db: Database;
  log: LabLog;
}

function linesOf(db: Database, pkid: string | null | undefined): string[] {
  return [...db.table('devicenumplanmap').lookup('fkdevice', pkid ?? null)]
    .sort((a, b) => Number(a.numplanindex) - Number(b.numplanindex))
    .map((m) => db.table('numplan').byPkid(m.fknumplan)?.dnorpattern ?? '');
}

/** The web server of one phone: `/CGI/Screenshot` behind HTTP Basic, and a small device page. */
export function phoneHandler(o: PhoneOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { state, db } = o;
  return async (req, res) => {
    const { path } = requestPath(req);
    const record = (status: number, user?: string): void =>
      o.log.request({
        node: state.name,
        service: 'phone',
        method: req.method ?? '',
        path,
        status,
        ...(user ? { user } : {}),
      });
    const device = db.table('device').findBy('name', state.name);
    if (!device) {
      record(404);
      send(res, 404, 'text/html', '<html><body>Not Found</body></html>');
      return;
    }
    if (device.webaccess !== 't') {
      // Web access off in the phone configuration: the phone serves nothing.
      record(403);
      send(res, 403, 'text/html', '<html><body>Forbidden</body></html>');
      return;
    }
    if (req.method === 'GET' && (path === '/' || path === '/CGI/Java/Serviceability')) {
      record(200);
      const body = `<html><head><title>Cisco IP Phone ${escapeXml(state.model)}</title></head><body><h1>Device Information</h1><table><tr><td>Host Name</td><td>${escapeXml(state.name)}</td></tr><tr><td>Model Number</td><td>${escapeXml(state.model)}</td></tr><tr><td>Phone DN</td><td>${escapeXml(linesOf(db, device.pkid)[0] ?? '')}</td></tr></table></body></html>`;
      send(res, 200, 'text/html', body);
      return;
    }
    if (path !== '/CGI/Screenshot') {
      record(404);
      send(res, 404, 'text/html', '<html><body>Not Found</body></html>');
      return;
    }
    const creds = basicCredentials(req);
    const user = creds ? authenticateEndUser(db, creds.user, creds.password) : undefined;
    const controls =
      user !== undefined &&
      db
        .table('enduserdevicemap')
        .rows.some(
          (m) =>
            m.fkenduser === user.pkid &&
            m.fkdevice === device.pkid &&
            m.tkuserassociation === USER_CONTROLS_DEVICE,
        );
    if (!controls) {
      state.refused++;
      record(401, creds?.user);
      sendUnauthorized(res, 'user');
      return;
    }
    const { width, height, format } = o.model.screenshot;
    const canvas = renderScreen({ name: state.name, lines: linesOf(db, device.pkid), width, height });
    const image = format === 'png' ? encodePng(canvas) : encodeBmp(canvas);
    state.screenshots++;
    record(200, creds?.user);
    send(res, 200, format === 'png' ? 'image/png' : 'image/bmp', image, { 'cache-control': 'no-store' });
  };
}
