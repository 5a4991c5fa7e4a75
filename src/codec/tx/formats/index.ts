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

export type { TxCapabilities, TxFormat, TxHeader } from './format.js';

/**
 * Overwintered formats by (version, version group id). A short list scanned in order rather
 * than a map with a built key: this runs once per decoded transaction.
 */
const OVERWINTERED: readonly { version: number; groupId: number; format: TxFormat }[] = [
  { version: 4, groupId: SAPLING_VERSION_GROUP_ID, format: v4Format },
  { version: 5, groupId: NU5_VERSION_GROUP_ID, format: v5Format },
  { version: 3, groupId: OVERWINTER_VERSION_GROUP_ID, format: v3Format },
  { version: ZFUTURE_TX_VERSION, groupId: ZFUTURE_VERSION_GROUP_ID, format: zfutureFormat },
];

export function selectFormat(header: TxHeader, offset: number): TxFormat {
  if (!header.overwintered) return header.version >= 2 ? v2Format : v1Format;
  for (const e of OVERWINTERED) {
    if (e.version === header.version && e.groupId === header.versionGroupId) return e.format;
  }
  throw new DecodeError('unknown-tx-format', offset, `Unknown transaction format${IOS_SUFFIX}`);
}
