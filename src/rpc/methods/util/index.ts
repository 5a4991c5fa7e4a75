/**
 * The util category (zcashd v6.12.2 src/rpc/misc.cpp `commands[]`) that needs no chain state:
 * address validation, multisig scripts, message signatures.
 */
import type { RpcMethod } from '../../method.js';
import { createMultisigMethod } from './createmultisig.js';
import { validateAddressMethod } from './validateaddress.js';
import { verifyMessageMethod } from './verifymessage.js';
import { zValidateAddressMethod, type ZValidateAddressOptions } from './z_validateaddress.js';

export function utilMethods(options: ZValidateAddressOptions = {}): RpcMethod[] {
  return [validateAddressMethod, zValidateAddressMethod(options), createMultisigMethod, verifyMessageMethod];
}
