/**
 * `getdeprecationinfo` (zcashd v6.12.2 src/rpc/net.cpp, deprecation.h): the version, and on
 * mainnet v6.12.2's end-of-service height with its estimated time (one post-Blossom block
 * spacing per block still to come from the tip); the feature lists are zcashd's defaults as a
 * build with the wallet compiled in has them, each in std::set order (whatever -allowdeprecated
 * says, as in zcashd). `deprecationheight` is printed only under
 * `-allowdeprecated=deprecationinfo_deprecationheight`. zecrpc does not itself stop at that height.
 */
import { DEFAULT_ALLOW_DEPRECATED, DEFAULT_DENY_DEPRECATED } from '../../../config.js';
import { JsonWriter } from '../../../json/writer.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import { ZCASHD_CLIENT_VERSION, zcashdSubversion } from '../control/getinfo.js';

/** deprecation.h's APPROX_RELEASE_HEIGHT: about where the chain was when v6.12.2 was released. */
export const APPROX_RELEASE_HEIGHT = 3_336_460;
/** APPROX_RELEASE_HEIGHT + 10 weeks of 48 blocks an hour (deprecation.h). */
export const DEPRECATION_HEIGHT = APPROX_RELEASE_HEIGHT + 10 * 7 * 24 * 48;
const POST_BLOSSOM_POW_TARGET_SPACING = 75;

/** DEFAULT_ALLOW_DEPRECATED, wallet build, sorted. */
export const DEPRECATED_FEATURES: readonly string[] = DEFAULT_ALLOW_DEPRECATED;
/** DEFAULT_DENY_DEPRECATED, wallet build, sorted. */
export const DISABLED_FEATURES: readonly string[] = DEFAULT_DENY_DEPRECATED;

export const GETDEPRECATIONINFO_HELP: string =
  'getdeprecationinfo\n' +
  'Returns an object containing current version and deprecation block height. Applicable only on mainnet.\n' +
  '\nResult:\n' +
  '{\n' +
  '  "version": xxxxx,                          (numeric) the server version\n' +
  '  "subversion": "/MagicBean:x.y.z[-v]/",     (string) the server subversion string\n' +
  '  "deprecationheight": xxxxx,                (numeric, deprecated) the block height at which this version will deprecate and shut down\n' +
  '  "end_of_service": {                        (object, optional) information about end-of-service halt, not present for testnet\n' +
  '                                             or regtest nodes\n' +
  '    "block_height": xxxxx,                   (numeric) the block height at which this version will reach its the end of its service period and shut down\n' +
  '    "estimated_time": xxxxx                  (numeric) the approximate time at which this version is expected to reach the end-of-service height,\n' +
  '                                             in seconds since epoch (midnight Jan 1 1970 GMT). Please note that given the variability of block times,\n' +
  '                                             the actual end-of-service halt may vary from this time by hours or even days; this value is provided\n' +
  '                                             solely for informational purposes and should not be relied upon to remain accurate. If the end-of-service\n' +
  '                                             height for this node has already been reached, this timestamp may be in the past.\n' +
  '  },\n' +
  '  "deprecated_features": [...],              (array of string) a list of currently-deprecated but not yet disabled features\n' +
  '  "disabled_features": [...]                 (array of string) a list of the deprecated and currently-disabled features that should be expected to be\n' +
  "                                             removed in an upcoming release. These features can be re-enabled via use of the '-allowdeprecated'\n" +
  '                                             configuration option; please see https://zcash.github.io/zcash/user/deprecation.html for additional\n' +
  '                                             information.\n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getdeprecationinfo', '') +
  exampleRpc('getdeprecationinfo', '');

export function getDeprecationInfoMethod(store: ChainStoreReader, clock: () => number, deprecationHeightField = false): RpcMethod {
  return {
    name: 'getdeprecationinfo',
    surface: 'peerless',
    category: 'network',
    required: 0,
    optional: 0,
    help: GETDEPRECATIONINFO_HELP,
    async call(_params, ctx) {
      const w = new JsonWriter().beginObject();
      w.key('version').int(ZCASHD_CLIENT_VERSION);
      w.key('subversion').str(zcashdSubversion());
      if (ctx.network.name === 'mainnet') {
        const tip = await store.tip();
        const height = tip ? tip.height : -1;
        if (deprecationHeightField) w.key('deprecationheight').int(DEPRECATION_HEIGHT);
        w.key('end_of_service').beginObject();
        w.key('block_height').int(DEPRECATION_HEIGHT);
        w.key('estimated_time').int(clock() + (DEPRECATION_HEIGHT - height) * POST_BLOSSOM_POW_TARGET_SPACING);
        w.endObject();
      }
      w.key('deprecated_features').beginArray();
      for (const f of DEPRECATED_FEATURES) w.plainStr(f);
      w.endArray().key('disabled_features').beginArray();
      for (const f of DISABLED_FEATURES) w.plainStr(f);
      return w.endArray().endObject().toString();
    },
  };
}
