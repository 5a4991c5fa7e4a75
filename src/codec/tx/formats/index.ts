/** Header → wire-format dispatch, exactly as zcashd v6.12.2's CTransaction deserializer. */
import { DecodeError, IOS_SUFFIX } from '../../errors.js';
import {
  NU5_VERSION_GROUP_ID,
  OVERWINTER_VERSION_GROUP_ID,
  SAPLING_VERSION_GROUP_ID,
  ZFUTURE_TX_VERSION,
  ZFUTURE_VERSION_GROUP_ID,
} from '../types.js';
import type { TxFormat, TxHeader } from './format.js';
import { v1Format, v2Format } from './legacy.js';
import { v5Format } from './nu5.js';
import { v3Format } from './overwinter.js';
import { v4Format, zfutureFormat } from './sapling.js';

export type { TxFormat, TxHeader } from './format.js';

/** Overwintered formats by `version:groupId`. */
const OVERWINTERED = new Map<string, TxFormat>([
  [`3:${OVERWINTER_VERSION_GROUP_ID}`, v3Format],
  [`4:${SAPLING_VERSION_GROUP_ID}`, v4Format],
  [`5:${NU5_VERSION_GROUP_ID}`, v5Format],
  [`${ZFUTURE_TX_VERSION}:${ZFUTURE_VERSION_GROUP_ID}`, zfutureFormat],
]);

export function selectFormat(header: TxHeader, offset: number): TxFormat {
  if (!header.overwintered) return header.version >= 2 ? v2Format : v1Format;
  const f = OVERWINTERED.get(`${header.version}:${header.versionGroupId}`);
  if (!f) throw new DecodeError('unknown-tx-format', offset, `Unknown transaction format${IOS_SUFFIX}`);
  return f;
}
