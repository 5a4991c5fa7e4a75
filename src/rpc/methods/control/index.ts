/** zcashd's control methods that zecrpc serves: `help` and `stop` (src/rpc/server.cpp). */
import { getStr } from '../../../json/getters.js';
import { quoteJsonString } from '../../../json/writer.js';
import type { RpcMethod } from '../../method.js';
import type { MethodRegistry } from '../../registry.js';

const HELP_HELP =
  'help ( "command" )\n' +
  '\nList all commands, or get help for a specified command.\n' +
  '\nArguments:\n' +
  '1. "command"     (string, optional) The command to get help on\n' +
  '\nResult:\n' +
  '"text"     (string) The help text\n';

export function helpMethod(registry: () => MethodRegistry): RpcMethod {
  return {
    name: 'help',
    category: 'control',
    required: 0,
    optional: 1,
    help: HELP_HELP,
    call(params) {
      const command = params.length > 0 ? getStr(params[0]!) : '';
      return quoteJsonString(registry().help(command));
    },
  };
}

export function stopMethod(): RpcMethod {
  return {
    name: 'stop',
    category: 'control',
    required: 0,
    optional: 1, // zcashd still accepts (and ignores) the deprecated 'detach' argument
    help: 'stop\n\nStop Zcash server.',
    call(_params, ctx) {
      // The reply is sent first; the server shuts down after in-flight requests finish.
      ctx.requestStop();
      return '"Zcash server stopping"';
    },
  };
}
