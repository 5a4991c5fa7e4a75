#!/usr/bin/env node
// zcash-cli for zecrpc: the compiled client in dist/ (`zecrpc cli …` runs the same code).
import { missingBuild } from './missing-build.js';

const { runClient } = await import('../dist/src/cli/client.js').catch((e) => missingBuild(e, 'cli/client.js'));
process.exitCode = await runClient(process.argv.slice(2));
