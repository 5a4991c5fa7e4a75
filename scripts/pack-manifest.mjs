#!/usr/bin/env node
// npm's prepack and postpack: the package.json inside the tarball carries no `prepare` script.
// `prepare` builds a clone at `npm ci`; a tarball is built already and npm never runs it there,
// yet npm lists it among the install scripts a consumer has not approved. `strip` keeps the
// original beside it and removes the script; `restore` puts the original back (and, run before
// a strip, repairs a pack that failed in between).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
const original = join(root, 'package.json.prepack');

function restore() {
  if (existsSync(original)) renameSync(original, manifest);
}

const mode = process.argv[2];
if (mode === 'strip') {
  restore();
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  writeFileSync(original, text);
  delete pkg.scripts.prepare;
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (mode === 'restore') {
  restore();
} else {
  process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
  process.exitCode = 2;
}
