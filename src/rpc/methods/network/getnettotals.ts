/**
 * `getnettotals` (zcashd v6.12.2 src/rpc/net.cpp): no peer traffic (0 bytes each way), the wall
 * clock in milliseconds, and the upload target as zcashd reports it without -maxuploadtarget
 * (a 24-hour timeframe, no target, so never reached and historical blocks always served).
 */
import { JsonWriter } from '../../../json/writer.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';

/** CNode::nMaxOutboundTimeframe's default. */
const OUTBOUND_TIMEFRAME_SECONDS = 60 * 60 * 24;

export const GETNETTOTALS_HELP: string =
  'getnettotals\n' +
  '\nReturns information about network traffic, including bytes in, bytes out,\n' +
  'and current time.\n' +
  '\nResult:\n' +
  '{\n' +
  '  "totalbytesrecv": n,   (numeric) Total bytes received\n' +
  '  "totalbytessent": n,   (numeric) Total bytes sent\n' +
  '  "timemillis": t,       (numeric) Total cpu time\n' +
  '  "uploadtarget":\n' +
  '  {\n' +
  '    "timeframe": n,                         (numeric) Length of the measuring timeframe in seconds\n' +
  '    "target": n,                            (numeric) Target in bytes\n' +
  '    "target_reached": true|false,           (boolean) True if target is reached\n' +
  '    "serve_historical_blocks": true|false,  (boolean) True if serving historical blocks\n' +
  '    "bytes_left_in_cycle": t,               (numeric) Bytes left in current time cycle\n' +
  '    "time_left_in_cycle": t                 (numeric) Seconds left in current time cycle\n' +
  '  }\n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getnettotals', '') +
  exampleRpc('getnettotals', '');

export function getNetTotalsMethod(clockMillis: () => number = Date.now): RpcMethod {
  return {
    name: 'getnettotals',
    surface: 'peerless',
    category: 'network',
    required: 0,
    optional: 0,
    help: GETNETTOTALS_HELP,
    call() {
      const w = new JsonWriter().beginObject();
      w.key('totalbytesrecv').int(0).key('totalbytessent').int(0).key('timemillis').int(clockMillis());
      w.key('uploadtarget').beginObject();
      w.key('timeframe').int(OUTBOUND_TIMEFRAME_SECONDS).key('target').int(0);
      w.key('target_reached').bool(false).key('serve_historical_blocks').bool(true);
      w.key('bytes_left_in_cycle').int(0).key('time_left_in_cycle').int(0);
      return w.endObject().endObject().toString();
    },
  };
}
