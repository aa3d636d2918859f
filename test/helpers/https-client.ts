import { Agent, fetch as undiciFetch, type RequestInit, type Response } from 'undici';

/**
 * fetch over HTTPS that trusts exactly the given CA/certificate (the server's self-signed one), with
 * certificate verification on: tests never switch verification off.
 */
export function pinnedFetch(
  caPem: string,
  extra: { minVersion?: 'TLSv1.2' | 'TLSv1.3'; maxVersion?: 'TLSv1.2' | 'TLSv1.3' } = {},
) {
  const dispatcher = new Agent({ connect: { ca: caPem, ...extra } });
  const fn = (input: string | URL, init: RequestInit = {}): Promise<Response> =>
    undiciFetch(input, { ...init, dispatcher });
  return Object.assign(fn, { close: () => dispatcher.close() });
}
