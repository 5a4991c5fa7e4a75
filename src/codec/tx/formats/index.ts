/**
 * Header → wire-format dispatch: exactly zcashd v6.12.2's CTransaction deserializer under its
 * acceptance (the default), and v6 (ZIP 229) under one that accepts it.
 */
import { DecodeError, IOS_SUFFIX } from '../../errors.js';
import { ZCASHD_6_12_2_ACCEPTANCE, type TxAcceptance } from '../acceptance.js';
import {
  NU5_VERSION_GROUP_ID,
  NU6_3_VERSION_GROUP_ID,
  OVERWINTER_VERSION_GROUP_ID,
  SAPLING_VERSION_GROUP_ID,
  ZFUTURE_TX_VERSION,
  ZFUTURE_VERSION_GROUP_ID,
} from '../types.js';
import type { TxFormat, TxHeader } from './format.js';
import { v1Format, v2Format } from './legacy.js';
import { v5Format } from './nu5.js';
import { v6Format } from './nu6-3.js';
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
  { version: 6, groupId: NU6_3_VERSION_GROUP_ID, format: v6Format },
  { version: ZFUTURE_TX_VERSION, groupId: ZFUTURE_VERSION_GROUP_ID, format: zfutureFormat },
];

/**
 * The format of `header`. An overwintered format the codec does not know, or that `acceptance`
 * does not accept (zcashd v6.12.2's by default), is refused as zcashd refuses an unknown one; a
 * null `acceptance` takes every format the codec knows (for encoding what was built or decoded).
 */
export function selectFormat(header: TxHeader, offset: number, acceptance: TxAcceptance | null = ZCASHD_6_12_2_ACCEPTANCE): TxFormat {
  if (!header.overwintered) return header.version >= 2 ? v2Format : v1Format;
  for (const e of OVERWINTERED) {
    if (e.version === header.version && e.groupId === header.versionGroupId) {
      if (acceptance === null || acceptance.acceptsFormat(e.version, e.groupId)) return e.format;
      break;
    }
  }
  throw new DecodeError('unknown-tx-format', offset, `Unknown transaction format${IOS_SUFFIX}`);
}
