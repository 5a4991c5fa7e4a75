#!/usr/bin/env -S node --max-semi-space-size=32
// Thin launcher: the compiled CLI lives in dist/ (built by `npm run build`, run by `npm start`).
// A 32 MB young generation cuts garbage-collection time when rendering large blocks as JSON
// (getblock verbosity 2 of a 1.4 MB block: ~50 ms → ~38 ms median, bench/store-serve.ts).
import '../dist/src/cli.js';
