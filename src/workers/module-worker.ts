/**
 * Starting a worker thread from a module of this package, whether it runs compiled (`dist/`,
 * where the `.js` file sits beside the caller) or from TypeScript sources under tsx or vitest:
 * then a bootstrap registers tsx's loader inside the thread first, since Node 20 does not pass
 * `--import` hooks on to workers reliably.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * `jsUrl`: the compiled worker module; its `.ts` twin is used when the `.js` file does not exist.
 * `options` (workerData, resource limits, …) apply either way.
 */
export function startModuleWorker(jsUrl: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  if (existsSync(fileURLToPath(jsUrl))) return new Worker(jsUrl, options);
  const ts = jsUrl.href.replace(/\.js$/, '.ts');
  const api = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(ts)}); });`;
  return new Worker(boot, { ...options, eval: true });
}
