/**
 * signrawtransaction's help (zcashd v6.12.2 src/rpc/rawtransaction.cpp) as a build with the
 * wallet prints it when no wallet is loaded: HelpRequiringPassphrase() is then empty, leaving
 * its line break.
 */
import { helpExampleCli, helpExampleRpc } from '../../help-examples.js';

export const SIGNRAWTRANSACTION_HELP: string =
  'signrawtransaction "hexstring" ( [{"txid":"id","vout":n,"scriptPubKey":"hex","redeemScript":"hex"},...] ["privatekey1",...] sighashtype )\n' +
  '\nsignrawtransaction is DEPRECATED and will be removed in a future release.\n' +
  'Zallet will instead provide new RPC methods that operate on PCZTs:\n' +
  'https://github.com/zcash/wallet/issues/99\n' +
  'See https://zcash.github.io/zcash/user/deprecation.html for more information.\n' +
  '\nSign inputs for raw transaction (serialized, hex-encoded).\n' +
  'The second optional argument (may be null) is an array of previous transaction outputs that\n' +
  'this transaction depends on but may not yet be in the block chain.\n' +
  'The third optional argument (may be null) is an array of base58-encoded private\n' +
  'keys that, if given, will be the only keys used to sign the transaction.\n' +
  '\n' +
  '\nArguments:\n' +
  '1. "hexstring"     (string, required) The transaction hex string\n' +
  '2. "prevtxs"       (string, optional) An json array of previous dependent transaction outputs\n' +
  "     [               (json array of json objects, or 'null' if none provided)\n" +
  '       {\n' +
  '         "txid":"id",             (string, required) The transaction id\n' +
  '         "vout":n,                  (numeric, required) The output number\n' +
  '         "scriptPubKey": "hex",   (string, required) script key\n' +
  '         "redeemScript": "hex",   (string, required for P2SH) redeem script\n' +
  '         "amount": value            (numeric, required) The amount spent\n' +
  '       }\n' +
  '       ,...\n' +
  '    ]\n' +
  '3. "privatekeys"     (string, optional) A json array of base58-encoded private keys for signing\n' +
  "    [                  (json array of strings, or 'null' if none provided)\n" +
  '      "privatekey"   (string) private key in base58-encoding\n' +
  '      ,...\n' +
  '    ]\n' +
  '4. "sighashtype"     (string, optional, default=ALL) The signature hash type. Must be one of\n' +
  '       "ALL"\n' +
  '       "NONE"\n' +
  '       "SINGLE"\n' +
  '       "ALL|ANYONECANPAY"\n' +
  '       "NONE|ANYONECANPAY"\n' +
  '       "SINGLE|ANYONECANPAY"\n' +
  '5.  "branchid"       (string, optional) The hex representation of the consensus branch id to sign with.' +
  " This can be used to force signing with consensus rules that are ahead of the node's current height.\n" +
  '\nResult:\n' +
  '{\n' +
  '  "hex" : "value",           (string) The hex-encoded raw transaction with signature(s)\n' +
  '  "complete" : true|false,   (boolean) If the transaction has a complete set of signatures\n' +
  '  "errors" : [                 (json array of objects) Script verification errors (if there are any)\n' +
  '    {\n' +
  '      "txid" : "hash",           (string) The hash of the referenced, previous transaction\n' +
  '      "vout" : n,                (numeric) The index of the output to spent and used as input\n' +
  '      "scriptSig" : "hex",       (string) The hex-encoded signature script\n' +
  '      "sequence" : n,            (numeric) Script sequence number\n' +
  '      "error" : "text"           (string) Verification or signing error related to the input\n' +
  '    }\n' +
  '    ,...\n' +
  '  ]\n' +
  '}\n' +
  '\nExamples:\n' +
  helpExampleCli('signrawtransaction', '"myhex"') +
  helpExampleRpc('signrawtransaction', '"myhex"');
