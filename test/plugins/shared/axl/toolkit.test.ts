import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import yazl from 'yazl';
import { BadRequestError, ConnectivityError, PayloadTooLargeError } from '../../../../kernel/sdk/index.ts';
import { generateSelfSigned } from '../../../helpers/self-signed.ts';
import { AxlSchemaCache } from '../../../../plugins/_shared/axl/schema-cache.ts';
import { downloadAxlToolkit } from '../../../../plugins/_shared/axl/toolkit.ts';
import type { ToolkitDownload } from '../../../../plugins/_shared/axl/toolkit.ts';
import { FAST_RETRY } from './helpers.ts';

function zipOf(
  entries: { name: string; data: Buffer; mode?: number }[],
  rename?: [string, string],
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries)
    zip.addBuffer(e.data, e.name, { compress: true, ...(e.mode ? { mode: e.mode } : {}) });
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => {
      const buf: Buffer = Buffer.concat(chunks);
      // yazl refuses to write `..`: a same-length placeholder is swapped in the local and central headers.
      if (rename) {
        const [from, to] = rename;
        let at = buf.indexOf(from);
        while (at >= 0) {
          buf.write(to, at, 'latin1');
          at = buf.indexOf(from, at + 1);
        }
      }
      resolve(buf);
    });
  });
}

const schemaFiles = (folder: string): { name: string; data: Buffer }[] =>
  ['AXLAPI.wsdl', 'AXLSoap.xsd', 'AXLEnums.xsd'].map((f) => ({
    name: `schema/${folder}/${f}`,
    data: Buffer.from(`<x>${f}</x>`),
  }));

describe('AXL toolkit extraction refuses hostile zips', () => {
  const pair = generateSelfSigned(['127.0.0.1', 'localhost'], 1, 'hostile node');
  let body: Buffer = Buffer.alloc(0);
  let server: Server;
  let dir: string;
  let base: ToolkitDownload;
  before(async () => {
    server = createServer({ cert: pair.certPem, key: pair.keyPem }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': body.length });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    dir = mkdtempSync(join(tmpdir(), 'axl-toolkit-'));
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  const opts = (sub: string, extra: Partial<ToolkitDownload> = {}): ToolkitDownload => {
    base = {
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      username: 'u',
      password: 'p',
      certPem: pair.certPem,
      cache: new AxlSchemaCache(join(dir, sub), 'cucm_download_axl_toolkit'),
      retry: FAST_RETRY,
      ...extra,
    };
    return base;
  };
  const nothingWritten = (sub: string): void => {
    assert.deepEqual(readdirSync(join(dir, sub, 'axl')), [], 'no version and no temp folder left');
    assert.ok(!existsSync(join(dir, 'evil.txt')) && !existsSync(join(dir, sub, 'evil.txt')));
  };

  it('extracts a well-formed zip served by a pinned self-signed node, storing current under the node version', async () => {
    body = await zipOf([
      ...schemaFiles('current'),
      { name: 'axlsqltoolkit/sample/run.sh', data: Buffer.from('rm -rf /') },
    ]);
    const r = await downloadAxlToolkit(opts('ok', { nodeVersion: '14.0' }));
    assert.deepEqual(r.versions, ['14.0']);
    assert.equal(r.skipped, 1);
    assert.deepEqual(readdirSync(join(dir, 'ok', 'axl')), ['14.0']);
  });

  it('refuses path traversal', async () => {
    body = await zipOf(
      [...schemaFiles('15.0'), { name: 'xx/xx/evil.txt', data: Buffer.from('x') }],
      ['xx/xx/evil', '../../evil'],
    );
    await assert.rejects(downloadAxlToolkit(opts('dots')), BadRequestError);
    nothingWritten('dots');
  });

  it('refuses symlinks', async () => {
    body = await zipOf([
      ...schemaFiles('15.0'),
      { name: 'schema/15.0/link', data: Buffer.from('/etc/passwd'), mode: 0o120777 },
    ]);
    await assert.rejects(
      downloadAxlToolkit(opts('link')),
      (e: unknown) => e instanceof BadRequestError && /symlink/.test(e.message),
    );
    nothingWritten('link');
  });

  it('refuses an entry whose uncompressed size is over the cap (zip bomb)', async () => {
    body = await zipOf([
      ...schemaFiles('15.0').slice(0, 2),
      { name: 'schema/15.0/AXLEnums.xsd', data: Buffer.alloc(1_000_000) },
    ]);
    assert.ok(body.length < 10_000, 'the bomb compresses well');
    await assert.rejects(downloadAxlToolkit(opts('bomb', { maxEntryBytes: 100_000 })), PayloadTooLargeError);
    nothingWritten('bomb');
  });

  it('refuses schema files whose sum is over the total cap', async () => {
    const versions = Array.from({ length: 17 }, (_, i) => `${i + 1}.0`);
    body = await zipOf(
      versions.flatMap((v) =>
        ['AXLAPI.wsdl', 'AXLSoap.xsd', 'AXLEnums.xsd'].map((f) => ({
          name: `schema/${v}/${f}`,
          data: Buffer.alloc(10),
        })),
      ),
    );
    await assert.rejects(downloadAxlToolkit(opts('many', { maxEntryBytes: 10 })), PayloadTooLargeError);
    nothingWritten('many');
  });

  it('refuses a zip larger than the download cap', async () => {
    body = await zipOf(schemaFiles('15.0'));
    await assert.rejects(downloadAxlToolkit(opts('big', { maxZipBytes: 100 })), PayloadTooLargeError);
    nothingWritten('big');
  });

  it('refuses a node whose certificate is not the pinned one', async () => {
    const other = generateSelfSigned(['127.0.0.1'], 1, 'someone else');
    await assert.rejects(downloadAxlToolkit(opts('pin', { certPem: other.certPem })), ConnectivityError);
    nothingWritten('pin');
  });

  it('a download cancelled after the zip arrived caches nothing (an MCP task cancelled mid-way)', async () => {
    body = await zipOf(schemaFiles('15.0'));
    const ac = new AbortController();
    await assert.rejects(
      downloadAxlToolkit(
        opts('cancelled', {
          signal: ac.signal,
          // The whole zip is in: the cancel lands during the extraction.
          onProgress: (_done, _total, message) => {
            if (message.startsWith('extracting')) ac.abort(new Error('the task was cancelled'));
          },
        }),
      ),
      /the task was cancelled/,
    );
    assert.deepEqual(readdirSync(join(dir, 'cancelled', 'axl')), [], 'no version and no work folder left');
  });
});
