/** `getexperimentalfeatures` (zcashd v6.12.2 src/rpc/misc.cpp). */
import { quoteJsonString } from '../../../json/writer.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import { enabledFeatureNames, type ExperimentalFeatures } from './experimental-features.js';

// zcashd's text runs "  ],\n" straight into "\nExamples:\n" (no line of its own for the result's end).
export const GETEXPERIMENTALFEATURES_HELP: string =
  'getexperimentalfeatures\n' +
  '\nReturns enabled experimental features.\n' +
  '\nResult:\n' +
  '  [\n' +
  '     "experimentalfeature"     (string) The enabled experimental feature\n' +
  '     ,...\n' +
  '  ],\n' +
  '\nExamples:\n' +
  exampleCli('getexperimentalfeatures', '') +
  exampleRpc('getexperimentalfeatures', '');

export function getExperimentalFeaturesMethod(features: ExperimentalFeatures): RpcMethod {
  const result = '[' + enabledFeatureNames(features).map(quoteJsonString).join(',') + ']';
  return {
    name: 'getexperimentalfeatures',
    category: 'control',
    required: 0,
    optional: 0,
    help: GETEXPERIMENTALFEATURES_HELP,
    call: () => result,
  };
}
