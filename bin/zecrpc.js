#!/usr/bin/env -S node --max-semi-space-size=32 --initial-old-space-size=128
// Launcher for the compiled CLI in dist/ (`npm ci` builds it through `prepare`; `npm run build` after edits).
// A 32 MB young generation cuts garbage-collection time when rendering large blocks as JSON
// (getblock verbosity 2 of a 1.4 MB block: ~50 ms → ~38 ms median, bench/store-serve.ts).
// A 128 MB initial old generation: with a live heap of a few tens of megabytes, V8 sets the old
// generation's limit so near it that, beside a 32 MB young generation, it starts marking again
// soon after each full collection, far below that limit; large request bodies (llhttp hands
// each chunk over in a new buffer) then cost back-to-back full collections
// (bench/results/large-replies.md).
// `import` runs with more options (relaunch.js IMPORT_NODE_OPTIONS), in a child process.
import { missingBuild } from './missing-build.js';
import { IMPORT_NODE_OPTIONS, relaunchWith } from './relaunch.js';

if (process.argv[2] === 'import') await relaunchWith(IMPORT_NODE_OPTIONS);

await import('../dist/src/cli.js').catch((e) => missingBuild(e, 'cli.js'));
