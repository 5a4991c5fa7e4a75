/**
 * `getblocksubsidy ( height )` (zcashd v6.12.2 src/rpc/mining.cpp): how the subsidy of the block
 * at a height is split between the miner, the founders' reward (before Canopy), the funding
 * streams paid to addresses and those kept in the lockbox. It reads nothing but the tip height
 * (the default), so it answers for any height, past or future, as zcashd does.
 */
import { activeFundingStreams, fundingStreamRecipient, fundingStreamValue } from '../../../chain/funding-streams.js';
import type { NetworkParams } from '../../../chain/network.js';
import { blockSubsidy, foundersRewardAmount } from '../../../chain/subsidy.js';
import { getInt } from '../../../json/getters.js';
import { JsonWriter } from '../../../json/writer.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { tipHeight } from '../blockchain/context.js';

export const GETBLOCKSUBSIDY_HELP: string =
  'getblocksubsidy height\n' +
  '\nReturns block subsidy reward, taking into account the mining slow start and the founders reward, of block at index provided.\n' +
  '\nArguments:\n' +
  '1. height         (numeric, optional) The block height.  If not provided, defaults to the current height of the chain.\n' +
  '\nResult:\n' +
  '{\n' +
  '  "miner" : x.xxx,              (numeric) The mining reward amount in ZEC.\n' +
  '  "founders" : x.xxx,           (numeric) The founders\' reward amount in ZEC.\n' +
  '  "fundingstreamstotal" : x.xxx,(numeric) The total value of direct funding streams in ZEC.\n' +
  '  "lockboxtotal" : x.xxx,       (numeric) The total value sent to development funding lockboxes in ZEC.\n' +
  '  "totalblocksubsidy" : x.xxx,  (numeric) The total value of the block subsidy in ZEC.\n' +
  '  "fundingstreams" : [          (array) An array of funding stream descriptions (present only when funding streams are active).\n' +
  '    {\n' +
  '      "recipient" : "...",        (string) A description of the funding stream recipient.\n' +
  '      "specification" : "url",    (string) A URL for the specification of this funding stream.\n' +
  '      "value" : x.xxx             (numeric) The funding stream amount in ZEC.\n' +
  '      "valueZat" : xxxx           (numeric) The funding stream amount in zatoshis.\n' +
  '      "address" :                 (string) The transparent or Sapling address of the funding stream recipient.\n' +
  '    }, ...\n' +
  '  ],\n' +
  '  "lockboxstreams" : [          (array) An array of development fund lockbox stream descriptions (present only when lockbox streams are active).\n' +
  '    {\n' +
  '      "recipient" : "...",        (string) A description of the lockbox.\n' +
  '      "specification" : "url",    (string) A URL for the specification of this lockbox.\n' +
  '      "value" : x.xxx             (numeric) The amount locked in ZEC.\n' +
  '      "valueZat" : xxxx           (numeric) The amount locked in zatoshis.\n' +
  '    }, ...\n' +
  '  ]\n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getblocksubsidy', '1000') +
  exampleRpc('getblocksubsidy', '1000');

/** The reply for `height` on `network`, as zcashd's getblocksubsidy writes it. */
export function blockSubsidyJson(height: number, network: NetworkParams): string {
  const subsidy = blockSubsidy(height, network);
  const w = new JsonWriter().beginObject();
  let streamsTotal = 0n;
  let lockboxTotal = 0n;
  // GetActiveFundingStreams: every active stream, in stream order (equal ones are not merged here).
  const streams = activeFundingStreams(height, network).map((stream) => ({
    stream,
    value: fundingStreamValue(stream.info, subsidy),
    recipient: fundingStreamRecipient(stream, height, network),
  }));
  const writeStreams = (key: string, list: typeof streams): void => {
    if (list.length === 0) return;
    w.key(key).beginArray();
    for (const { stream, value, recipient } of list) {
      w.beginObject();
      w.key('recipient').str(stream.info.recipientName);
      w.key('specification').str(stream.info.specification);
      w.key('value').amount(value);
      w.key('valueZat').int(Number(value));
      if (recipient.kind === 'address') w.key('address').str(recipient.address);
      w.endObject();
    }
    w.endArray();
  };
  const paid = streams.filter((s) => s.recipient.kind === 'address');
  const locked = streams.filter((s) => s.recipient.kind === 'lockbox');
  for (const s of paid) streamsTotal += s.value;
  for (const s of locked) lockboxTotal += s.value;
  writeStreams('fundingstreams', paid);
  writeStreams('lockboxstreams', locked);
  // The founders' reward only before Canopy (the funding streams' branch is taken from Canopy on).
  const founders = foundersRewardAmount(height, network);
  w.key('miner').amount(subsidy - founders - streamsTotal - lockboxTotal);
  w.key('founders').amount(founders);
  w.key('fundingstreamstotal').amount(streamsTotal);
  w.key('lockboxtotal').amount(lockboxTotal);
  w.key('totalblocksubsidy').amount(subsidy);
  return w.endObject().toString();
}

export function getBlockSubsidyMethod(store: ChainStoreReader): RpcMethod {
  return {
    name: 'getblocksubsidy',
    category: 'mining',
    required: 0,
    optional: 1,
    help: GETBLOCKSUBSIDY_HELP,
    async call(params, ctx) {
      const height = params.length === 1 ? getInt(params[0]!) : await tipHeight(store);
      if (height < 0) throw new RpcError(RPC.INVALID_PARAMETER, 'Block height out of range');
      return blockSubsidyJson(height, ctx.network);
    },
  };
}
