import { PHONE_MODELS } from '../cucm/db/types.ts';
import { DEMO_PHONES } from '../cucm/topology.ts';
import { hostileHandler } from '../hostile/http.ts';
import { listen } from '../http/listener.ts';
import type { Database } from '../informix/database.ts';
import { PORT_SLOTS, portFor } from '../options.ts';
import type { LabContext } from '../runtime.ts';
import type { LabNodeInfo } from '../types.ts';
import { phoneHandler } from './phone-server.ts';
import type { PhoneState } from './state.ts';

/** One HTTP listener per demo phone, each answering as that phone at 127.0.0.1:<port>. */
export async function startPhones(
  ctx: LabContext,
  cucmDb: Database,
): Promise<{ states: PhoneState[]; infos: LabNodeInfo[] }> {
  const { opts } = ctx;
  const owners = new Map([opts.credentials.phone, opts.credentials.phoneOther].map((c) => [c.user, c]));
  const states: PhoneState[] = [];
  const infos: LabNodeInfo[] = [];
  for (const [i, phone] of DEMO_PHONES.entries()) {
    const model = PHONE_MODELS.find((m) => m.name === phone.model);
    if (!model) throw new Error(`no screen for ${phone.model}`);
    const state: PhoneState = {
      name: phone.name,
      model: phone.model,
      format: model.screenshot.format,
      screenshots: 0,
      refused: 0,
    };
    const listener = await listen(
      opts.host,
      portFor(opts, PORT_SLOTS.firstPhone + i),
      hostileHandler(ctx.hostile, phone.name, phoneHandler({ state, model, db: cucmDb, log: ctx.log })),
    );
    ctx.closers.push(() => listener.close());
    states.push(state);
    const owner = phone.owner ? owners.get(phone.owner) : undefined;
    infos.push({
      product: 'phone',
      name: phone.name,
      host: opts.host,
      address: `${opts.host}:${listener.port}`,
      ports: { http: listener.port },
      urls: { screenshot: `http://${opts.host}:${listener.port}/CGI/Screenshot` },
      credentials: owner ? { phone: { ...owner } } : {},
      model: phone.model,
      screenshotFormat: model.screenshot.format,
    });
  }
  return { states, infos };
}
