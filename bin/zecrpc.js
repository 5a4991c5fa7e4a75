#!/usr/bin/env -S node --max-semi-space-size=32
// Launcher for the compiled CLI in dist/ (`npm ci` builds it through `prepare`; `npm run build` after edits).
// A 32 MB young generation cuts garbage-collection time when rendering large blocks as JSON
// (getblock verbosity 2 of a 1.4 MB block: ~50 ms → ~38 ms median, bench/store-serve.ts).
import { missingBuild } from './missing-build.js';

await import('../dist/src/cli.js').catch((e) => missingBuild(e, 'cli.js'));
