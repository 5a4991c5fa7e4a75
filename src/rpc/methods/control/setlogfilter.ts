/**
 * `setlogfilter "directives"` (zcashd v6.12.2 src/rpc/server.cpp): replaces the log filter, or
 * with an empty string restores the one the node started with. zcashd reads the filter with
 * `EnvFilter::new`, which skips what it cannot read rather than failing, so any string is
 * accepted and the reply is null; `log-filter.ts` maps the directives onto zecrpc's logs.
 * A server without a log (a library embedding) accepts the filter and does nothing, as zcashd
 * without a tracing handle.
 */
import type { JsonValue } from '../../../json/value.js';
import { JsonNumber } from '../../../json/value.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import { parseLogFilter, zcashdDefaultFilter, type LogFilterTarget } from './log-filter.js';

export function setLogFilterHelp(defaultFilter: string): string {
  return (
    'setlogfilter "directives"\n' +
    '\nSets the filter to be used for selecting events to log.\n' +
    '\nA filter is a comma-separated list of directives.\n' +
    'The syntax for each directive is:\n' +
    '\n    target[span{field=value}]=level\n' +
    '\nThe default filter, derived from the -debug=target flags, is:\n' +
    `\n    ${defaultFilter}\n` +
    '\nPassing a valid filter here will replace the existing filter.\n' +
    'Passing an empty string will reset the filter to the default.\n' +
    '\nNote that enabling trace-level events should always be considered\n' +
    'unsafe, as they can result in sensitive information like decrypted\n' +
    'notes and private keys being printed to the log output.\n' +
    '\nArguments:\n' +
    '1. newFilterDirectives (string, required) The new log filter.\n' +
    '\nExamples:\n' +
    exampleCli('setlogfilter', '"main=info,rpc=info"') +
    exampleRpc('setlogfilter', '"main=info,rpc=info"')
  );
}

/** UniValue's `getValStr()`: a string's or number's text, "1" for true, "" for anything else. */
function valStr(v: JsonValue | undefined): string {
  if (typeof v === 'string') return v;
  if (v instanceof JsonNumber) return v.text;
  return v === true ? '1' : '';
}

export function setLogFilterMethod(target: LogFilterTarget | null): RpcMethod {
  return {
    name: 'setlogfilter',
    category: 'control',
    required: 1,
    optional: 0,
    help: setLogFilterHelp(target?.defaultFilter ?? zcashdDefaultFilter([])),
    call(params) {
      const filter = valStr(params[0]);
      if (target === null) return 'null';
      if (filter === '') {
        target.reset();
        return 'null';
      }
      // The filter crosses to Rust as a C string: it ends at the first NUL.
      const nul = filter.indexOf('\0');
      target.apply(parseLogFilter(nul < 0 ? filter : filter.slice(0, nul)));
      return 'null';
    },
  };
}
