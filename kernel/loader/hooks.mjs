// Module hooks of the server's TypeScript loader (registered by kernel/loader/register.mjs; they run on
// Node's loader thread). A .ts file is transpiled by esbuild from the bytes read now, or taken from the
// authenticated cache of exactly those bytes (transpile-cache.mjs); everything else goes on to Node.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheKey, entryName, readEntry, writeEntry } from './transpile-cache.mjs';

const TS_URL = /^file:\/\/[^?#]*\.m?ts(?:[?#].*)?$/;

let state = { root: '', cacheDir: '', secretsDir: '', compilerOptions: {} };
let keyPromise = null;
let tag = null;
let esbuildPromise = null;

export function initialize(data) {
  state = data;
}

/** esbuild is tsx's dependency, not ours: it is found from tsx's place. */
function fromTsx() {
  return createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
}

/** esbuild's version, from its package.json (loading esbuild itself costs more). */
function esbuildVersion() {
  return JSON.parse(readFileSync(fromTsx().resolve('esbuild/package.json'), 'utf8')).version;
}

/** Loaded by the first cache miss only: a warm start never needs esbuild. */
function esbuild() {
  esbuildPromise ??= Promise.resolve().then(() => fromTsx()('esbuild'));
  return esbuildPromise;
}

/** The transform of one file; everything but `sourcefile` is part of every entry's name (`tag`). */
function transformOptions(path) {
  return {
    loader: 'ts',
    format: 'esm',
    target: `node${process.versions.node}`,
    sourcemap: 'inline',
    // As tsx does outside coverage and the inspector: the map points at the file, the file holds the source.
    sourcesContent: false,
    sourcefile: path,
    // As tsx does: names kept for stack traces and error classes, whitespace dropped.
    keepNames: true,
    minifyWhitespace: true,
    tsconfigRaw: { compilerOptions: state.compilerOptions },
  };
}

function cacheable(path) {
  return (
    state.cacheDir !== '' && path.startsWith(state.root + sep) && !path.includes(`${sep}node_modules${sep}`)
  );
}

async function transpile(path, source) {
  const esb = await esbuild();
  return (await esb.transform(source, transformOptions(path))).code;
}

export async function load(url, context, nextLoad) {
  if (!TS_URL.test(url)) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const source = await readFile(path);
  let code = null;
  if (cacheable(path)) {
    keyPromise ??= cacheKey(state.secretsDir);
    const key = await keyPromise;
    if (key) {
      tag ??= JSON.stringify([esbuildVersion(), process.versions.node, transformOptions('')]);
      const name = entryName(tag, path, source);
      code = await readEntry(state.cacheDir, key, name);
      if (code === null) {
        code = await transpile(path, source);
        await writeEntry(state.cacheDir, key, name, code);
      }
    }
  }
  code ??= await transpile(path, source);
  return { format: 'module', source: code, shortCircuit: true };
}
