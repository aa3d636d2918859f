import { pinnedFetch } from '../../helpers/https-client.ts';

/**
 * What a person does with the authorization URL the suite prints: opens it, signs in on the login page
 * as a configured client (its name and secret), approves, and the browser follows the redirect to the
 * suite's loopback callback. Returns the callback URL reached, or throws with what the server answered.
 */
export async function signInAndApprove(
  authorizationUrl: string,
  o: { caPem: string; identity: { name: string; secret: string } },
): Promise<string> {
  const fetch = pinnedFetch(o.caPem);
  try {
    const page = await fetch(authorizationUrl, { redirect: 'manual' });
    const html = await page.text();
    if (page.status !== 200)
      throw new Error(
        `the authorization URL answered ${page.status}: ${summary(html, page.headers.get('location'))}`,
      );
    const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
    if (!form) throw new Error('the login page has no form');
    const fields = new URLSearchParams();
    for (const input of (form[2] as string).matchAll(/<input\b([^>]*)>/g)) {
      const attrs = input[1] as string;
      const name = /\bname="([^"]+)"/.exec(attrs)?.[1];
      if (!name) continue;
      const value = /\bvalue="([^"]*)"/.exec(attrs)?.[1];
      if (name === 'client_id') fields.set(name, value || o.identity.name);
      else if (name === 'client_secret') fields.set(name, o.identity.secret);
      else fields.set(name, decodeEntities(value ?? ''));
    }
    fields.set('decision', 'approve');
    const action = new URL(decodeEntities(form[1] as string), page.url || authorizationUrl);
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const answer = await fetch(action, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: action.origin,
        ...(cookie ? { cookie } : {}),
      },
      body: fields.toString(),
    });
    const location = answer.headers.get('location');
    if (answer.status !== 302 && answer.status !== 303)
      throw new Error(`the login form answered ${answer.status}: ${summary(await answer.text(), location)}`);
    if (!location) throw new Error('the login form redirected nowhere');
    // The callback is the suite's own plain-HTTP loopback listener, as a native app's would be.
    const callback = await globalThis.fetch(location, { redirect: 'manual' });
    await callback.body?.cancel();
    return location;
  } finally {
    await fetch.close();
  }
}

function summary(html: string, location: string | null): string {
  if (location) return `redirect to ${location}`;
  const text = html
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.slice(0, 200);
}

function decodeEntities(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
