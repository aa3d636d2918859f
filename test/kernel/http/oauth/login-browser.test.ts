import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { chromiumSkip, launchPinnedChromium } from '../../../helpers/pinned-chromium.ts';
import { startTestKernel, type TestKernel } from '../../../helpers/kernel.ts';
import {
  authorizeUrl,
  basicAuth,
  clientFiles,
  getStatus,
  loopbackRedirectServer,
  postForm,
} from '../../../helpers/oauth.ts';

const skip = chromiumSkip('the browser login test', 'the SDK test covers the flow');

describe('login page in headless Chromium', { skip }, () => {
  let k: TestKernel;
  let browser: Browser;
  let callback: Awaited<ReturnType<typeof loopbackRedirectServer>>;
  before(async () => {
    callback = await loopbackRedirectServer();
    k = await startTestKernel({
      env: { AUTH_CLIENTS: 'noc-agent:operator:cucm+imp:http://127.0.0.1/callback', AUTH_BCRYPT_COST: '4' },
    });
    browser = await launchPinnedChromium(k.certPem);
  });
  after(async () => {
    await browser?.close();
    await k?.stop();
    await callback?.close();
  });

  it('renders without CSP violations and completes the flow by clicking through it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      // The browser asks for /favicon.ico on its own; the page itself loads nothing.
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) problems.push(m.text());
    });
    page.on('requestfailed', (r) => problems.push(`${r.url()}: ${r.failure()?.errorText ?? ''}`));

    const redirectUri = callback.uri('/callback');
    const { url, verifier } = authorizeUrl(k, {
      client_id: 'noc-agent',
      redirect_uri: redirectUri,
      state: 'browser-1',
    });
    const response = await page.goto(url);
    assert.equal(response?.status(), 200);
    assert.equal(await page.title(), 'Authorize noc-agent');
    assert.equal(await page.textContent('#client-name'), 'noc-agent');
    assert.equal(await page.textContent('#redirect-uri'), redirectUri);
    // The nonce'd stylesheet applied: the primary button is styled (blue), so the CSP let it through.
    const background = await page.evaluate(
      "getComputedStyle(document.querySelector('button.primary')).backgroundColor",
    );
    assert.equal(background, 'rgb(29, 78, 216)');

    // A wrong secret first: the form comes back with the error.
    await page.fill('#client_secret', 'not-the-secret');
    await Promise.all([page.waitForLoadState('domcontentloaded'), page.click('button[value=approve]')]);
    assert.match((await page.textContent('[role=alert]')) ?? '', /not correct/);

    await page.fill('#client_secret', clientFiles(k.stateDir, 'noc-agent').secret);
    await Promise.all([
      page.waitForURL((u) => u.href.startsWith(redirectUri)),
      page.click('button[value=approve]'),
    ]);
    assert.equal(await page.textContent('#done'), 'You may close this window.');
    assert.deepEqual(problems, []);
    await context.close();

    const landed = callback.received.filter((u) => u.pathname === '/callback').at(-1) as URL;
    assert.equal(landed.searchParams.get('state'), 'browser-1');
    assert.equal(landed.searchParams.get('iss'), k.url);
    const code = landed.searchParams.get('code') ?? '';
    const { secret } = clientFiles(k.stateDir, 'noc-agent');
    const res = await postForm(
      k,
      '/token',
      { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri },
      { authorization: basicAuth('noc-agent', secret) },
    );
    assert.equal(res.status, 200);
    const { access_token: token } = (await res.json()) as { access_token: string };
    assert.equal((await getStatus(k, token)).status, 200);
  });
});
