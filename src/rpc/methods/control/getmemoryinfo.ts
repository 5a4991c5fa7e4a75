/**
 * `getmemoryinfo` (zcashd v6.12.2 src/rpc/misc.cpp): the statistics of zcashd's locked-memory
 * manager, which holds key material. zecrpc holds no keys and locks no memory, so every count
 * is 0: what zcashd's LockedPool reports before it has created an arena (zcashd itself creates
 * one at startup for its secp256k1 context's seed, whose size depends on the host's mlock limit).
 */
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';

export const GETMEMORYINFO_HELP: string =
  'getmemoryinfo\n' +
  'Returns an object containing information about memory usage.\n' +
  '\nResult:\n' +
  '{\n' +
  '  "locked": {               (json object) Information about locked memory manager\n' +
  '    "used": xxxxx,          (numeric) Number of bytes used\n' +
  '    "free": xxxxx,          (numeric) Number of bytes available in current arenas\n' +
  '    "total": xxxxxxx,       (numeric) Total number of bytes managed\n' +
  '    "locked": xxxxxx,       (numeric) Amount of bytes that succeeded locking. If this number is smaller than total, locking pages failed at some point and key data could be swapped to disk.\n' +
  '    "chunks_used": xxxxx,   (numeric) Number allocated chunks\n' +
  '    "chunks_free": xxxxx,   (numeric) Number unused chunks\n' +
  '  }\n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getmemoryinfo', '') +
  exampleRpc('getmemoryinfo', '');

export function getMemoryInfoMethod(): RpcMethod {
  return {
    name: 'getmemoryinfo',
    surface: 'peerless',
    category: 'control',
    required: 0,
    optional: 0,
    help: GETMEMORYINFO_HELP,
    call: () => '{"locked":{"used":0,"free":0,"total":0,"locked":0,"chunks_used":0,"chunks_free":0}}',
  };
}
