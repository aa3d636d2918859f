// Opening an SSH connection and an interactive shell to a VOS node, and saying clearly why it failed.
import type ssh2 from 'ssh2';
import type { Client as SshClient, ClientChannel } from 'ssh2';
import { createRequire } from 'node:module';
import { connect, type Socket } from 'node:net';
import {
  ConnectivityError,
  DENY_LIST_ONLY,
  NodeAddressDeniedError,
  SSHError,
  type NodeAddressGuard,
  type TofuHostVerifier,
} from '../../../kernel/sdk/index.ts';

const require = createRequire(import.meta.url);
let ssh2Library: typeof ssh2 | undefined;

/** ssh2, loaded by its first use (an SSH connection, a CDR receiver): about 110 ms of the server's startup CPU otherwise. */
export function loadSsh2(): typeof ssh2 {
  return (ssh2Library ??= require('ssh2') as typeof ssh2);
}

/** Network failures worth another attempt: the node may be restarting or briefly unreachable. */
const RETRYABLE_CODES = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

/** A ConnectivityError that says whether trying again may help. */
export class NodeUnreachableError extends ConnectivityError {
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface SshAddress {
  host: string;
  port: number;
}

/**
 * Where to connect: `options.address` of the credential (`host:port`, `[v6]:port`) if set, else the
 * credential's host, with port 22 unless the host names one.
 */
export function sshAddress(host: string, options: Record<string, unknown> | undefined): SshAddress {
  const address = options?.address;
  const text = typeof address === 'string' && address.trim() !== '' ? address.trim() : host;
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const plain = /^([^:[\]]+)(?::(\d+))?$/.exec(text);
  const m = v6 ?? plain;
  if (!m?.[1]) throw new SSHError('the SSH address of this node is not in host[:port] form');
  const port = m[2] === undefined ? 22 : Number(m[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new SSHError('the SSH port of this node is not between 1 and 65535');
  return { host: m[1], port };
}

export interface ConnectOptions extends SshAddress {
  username: string;
  password: string;
  verifier: TofuHostVerifier;
  /** Names the node in messages, e.g. "cucm host cucm-pub". */
  label: string;
  /** Handshake plus authentication. */
  readyTimeoutMs: number;
  /** Where nodes may be (the kernel's node address policy); unset: the always-refused list only. */
  addresses?: NodeAddressGuard;
}

export interface OpenShell {
  client: SshClient;
  channel: ClientChannel;
}

/**
 * Connects with keyboard-interactive authentication only (VOS refuses the password method, and trying
 * it first would count as a failed attempt), then opens a shell with a pty so the node behaves as for
 * a person at a terminal. Failures: the verifier's HostKeyError as is; SSHError for authentication
 * (no credential in the message); NodeUnreachableError for the network.
 */
export function openShell(o: ConnectOptions): Promise<OpenShell> {
  return new Promise((resolve, reject) => {
    let Client: typeof ssh2.Client;
    try {
      Client = loadSsh2().Client;
    } catch (err) {
      reject(new SSHError(`the SSH library (ssh2) could not be loaded: ${(err as Error).message}`));
      return;
    }
    // ssh2 would resolve the name itself: the socket is opened here, through the policy's resolution,
    // so the address checked is the one connected to (a refused literal never gets a socket).
    let sock: Socket;
    try {
      sock = connect({
        host: o.host,
        port: o.port,
        ...(o.addresses ?? DENY_LIST_ONLY).dialOptions(o.host, o.port),
      });
    } catch (err) {
      reject(err as Error);
      return;
    }
    const client = new Client();
    let settled = false;
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      client.end();
      reject(err);
    };
    client.on('keyboard-interactive', (_name, _instructions, _lang, prompts, finish) => {
      // Only a password question gets the password, so an unexpected question does not receive it.
      finish(prompts.map((p) => (/password/i.test(p.prompt) ? o.password : '')));
    });
    client.on('error', (err: Error & { level?: string; code?: string }) => fail(classify(err, o)));
    client.on('close', () => fail(new NodeUnreachableError(`${o.label} closed the SSH connection`, false)));
    client.on('ready', () => {
      // Wide and tall, so the node neither wraps the echoed command nor pages before pagination is off.
      client.shell({ term: 'vt100', cols: 1000, rows: 500, width: 0, height: 0 }, (err, channel) => {
        if (err) return fail(new SSHError(`${o.label} refused an interactive shell: ${err.message}`));
        if (settled) return channel.close();
        settled = true;
        resolve({ client, channel });
      });
    });
    client.connect({
      sock,
      username: o.username,
      tryKeyboard: true,
      hostVerifier: o.verifier,
      readyTimeout: o.readyTimeoutMs,
      keepaliveInterval: 15_000,
      keepaliveCountMax: 4,
    });
  });
}

function classify(err: Error & { level?: string; code?: string }, o: ConnectOptions): Error {
  // The node address policy refused every address: as is, never retried.
  if (err instanceof NodeAddressDeniedError) return err;
  // The verifier refused the key during key exchange: its error names the fingerprints and the tool.
  if (o.verifier.rejection) return o.verifier.rejection;
  if (err.level === 'client-authentication')
    return new SSHError(
      `authentication failed on ${o.label}: the stored OS admin credential was not accepted ` +
        '(update it with the credential tool)',
    );
  const where = `${o.label} (${o.host}:${o.port})`;
  if (err.level === 'client-timeout')
    return new NodeUnreachableError(`${where} did not complete the SSH handshake in time`, true, {
      cause: err,
    });
  if (err.code && RETRYABLE_CODES.has(err.code))
    return new NodeUnreachableError(`cannot reach ${where}: ${err.code}`, true, { cause: err });
  if (err.level === 'client-socket' || err.code)
    return new NodeUnreachableError(`cannot reach ${where}: ${err.code ?? err.message}`, false, {
      cause: err,
    });
  return new SSHError(`SSH to ${where} failed: ${err.message}`, { cause: err });
}
