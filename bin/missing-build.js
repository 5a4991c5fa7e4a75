// In a clone whose dist/ was never built, say how to build it instead of printing a module-loader trace.
export function missingBuild(error, entry) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(`dist/src/${entry}`)) {
    process.stderr.write('Error: zecrpc is not built (dist/ is missing). Run `npm run build` (`npm ci` builds it too).\n');
    process.exit(1);
  }
  throw error;
}
