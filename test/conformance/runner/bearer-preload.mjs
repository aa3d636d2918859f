// Loaded into the conformance suite's process (`node --import`). The suite has no option for
// credentials, so this gives it the conformance client's bearer token: every request it sends to the
// server under test carries `Authorization: Bearer <startup token>`, and no request to any other origin
// does. The suite's HTTP goes through undici (fetch, and undici's request for raw probes), whose global
// dispatcher this replaces, and, for the SEP-2243 header probes, through node:http, which can only
// speak plain HTTP: those requests to the server go over node:https instead. TLS stays verified
// against NODE_EXTRA_CA_CERTS throughout.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import { URL } from 'node:url';

const origin = process.env.CONFORMANCE_SERVER_ORIGIN;
const tokenFile = process.env.CONFORMANCE_TOKEN_FILE;
const suiteEntry = process.env.CONFORMANCE_SUITE_ENTRY;
if (!origin || !tokenFile || !suiteEntry)
  throw new Error(
    'CONFORMANCE_SERVER_ORIGIN, CONFORMANCE_TOKEN_FILE and CONFORMANCE_SUITE_ENTRY are required',
  );

// The suite's own undici: the dispatcher must be one its version understands.
const { Agent, setGlobalDispatcher } = createRequire(suiteEntry)('undici');
const bearer = `Bearer ${readFileSync(tokenFile, 'utf8').trim()}`;

/** Whether a request already names its credentials (a scenario testing authentication itself). */
function hasAuthorization(headers) {
  if (!headers) return false;
  if (Array.isArray(headers)) {
    const flat = headers.flat();
    return flat.some((v, i) => i % 2 === 0 && String(v).toLowerCase() === 'authorization');
  }
  if (typeof headers[Symbol.iterator] === 'function')
    return [...headers].some(([k]) => String(k).toLowerCase() === 'authorization');
  return Object.keys(headers).some((k) => k.toLowerCase() === 'authorization');
}

function withAuthorization(headers) {
  if (!headers) return { authorization: bearer };
  if (Array.isArray(headers)) return [...headers.flat(), 'authorization', bearer];
  if (typeof headers[Symbol.iterator] === 'function')
    return [...[...headers].flat(), 'authorization', bearer];
  return { ...headers, authorization: bearer };
}

const bearerToServer = (dispatch) => (opts, handler) => {
  const target = opts.origin ? new URL(String(opts.origin)).origin : undefined;
  if (target === origin && !hasAuthorization(opts.headers))
    return dispatch({ ...opts, headers: withAuthorization(opts.headers) }, handler);
  return dispatch(opts, handler);
};

setGlobalDispatcher(new Agent().compose(bearerToServer));

const plainRequest = http.request;
http.request = function request(options, ...rest) {
  const o = options;
  const toServer =
    o !== null &&
    typeof o === 'object' &&
    !(o instanceof URL) &&
    typeof o.hostname === 'string' &&
    `https://${o.hostname}:${o.port}` === origin;
  if (!toServer) return plainRequest.call(this, options, ...rest);
  const headers = hasAuthorization(o.headers) ? o.headers : withAuthorization(o.headers);
  return https.request({ ...o, protocol: 'https:', headers }, ...rest);
};
