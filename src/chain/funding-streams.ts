/**
 * Who gets which part of each block subsidy, per network, as zcashd v6.12.2 hard-codes it
 * (src/chainparams.cpp, src/consensus/params.cpp, src/consensus/funding.cpp): the pre-Canopy
 * founders' reward, the ZIP 207/214 funding streams (ZIP 1015 and ZIP 2001 add the lockbox
 * streams), and the ZIP 271 one-time lockbox disbursement at NU6.1. Spec §3.3–§3.5.
 *
 * Stream heights follow zcashd: where chainparams uses an upgrade's activation height, it is
 * read from the network's upgrade table; where it uses a literal, the literal is here.
 * Amounts are BigInt zatoshis.
 */
import { decodeTransparentAddress } from '../codec/script/address.js';
import { isUpgradeActive, type NetworkName, type NetworkParams, type NetworkUpgrade } from './network.js';
import {
  activationHeight,
  BLOSSOM_POW_TARGET_SPACING_RATIO,
  blockSubsidy,
  foundersRewardAmount,
  halvingHeight,
  lastFoundersRewardHeight,
  resolveNetwork,
  subsidySchedule,
  type NetworkRef,
} from './subsidy.js';

// --- Recipient data (address lists verbatim from v6.12.2 chainparams.cpp) -------------------

const MAINNET_FOUNDERS_ADDRESSES: readonly string[] = [
  't3Vz22vK5z2LcKEdg16Yv4FFneEL1zg9ojd',
  't3cL9AucCajm3HXDhb5jBnJK2vapVoXsop3',
  't3fqvkzrrNaMcamkQMwAyHRjfDdM2xQvDTR',
  't3TgZ9ZT2CTSK44AnUPi6qeNaHa2eC7pUyF',
  't3SpkcPQPfuRYHsP5vz3Pv86PgKo5m9KVmx',
  't3Xt4oQMRPagwbpQqkgAViQgtST4VoSWR6S',
  't3ayBkZ4w6kKXynwoHZFUSSgXRKtogTXNgb',
  't3adJBQuaa21u7NxbR8YMzp3km3TbSZ4MGB',
  't3K4aLYagSSBySdrfAGGeUd5H9z5Qvz88t2',
  't3RYnsc5nhEvKiva3ZPhfRSk7eyh1CrA6Rk',
  't3Ut4KUq2ZSMTPNE67pBU5LqYCi2q36KpXQ',
  't3ZnCNAvgu6CSyHm1vWtrx3aiN98dSAGpnD',
  't3fB9cB3eSYim64BS9xfwAHQUKLgQQroBDG',
  't3cwZfKNNj2vXMAHBQeewm6pXhKFdhk18kD',
  't3YcoujXfspWy7rbNUsGKxFEWZqNstGpeG4',
  't3bLvCLigc6rbNrUTS5NwkgyVrZcZumTRa4',
  't3VvHWa7r3oy67YtU4LZKGCWa2J6eGHvShi',
  't3eF9X6X2dSo7MCvTjfZEzwWrVzquxRLNeY',
  't3esCNwwmcyc8i9qQfyTbYhTqmYXZ9AwK3X',
  't3M4jN7hYE2e27yLsuQPPjuVek81WV3VbBj',
  't3gGWxdC67CYNoBbPjNvrrWLAWxPqZLxrVY',
  't3LTWeoxeWPbmdkUD3NWBquk4WkazhFBmvU',
  't3P5KKX97gXYFSaSjJPiruQEX84yF5z3Tjq',
  't3f3T3nCWsEpzmD35VK62JgQfFig74dV8C9',
  't3Rqonuzz7afkF7156ZA4vi4iimRSEn41hj',
  't3fJZ5jYsyxDtvNrWBeoMbvJaQCj4JJgbgX',
  't3Pnbg7XjP7FGPBUuz75H65aczphHgkpoJW',
  't3WeKQDxCijL5X7rwFem1MTL9ZwVJkUFhpF',
  't3Y9FNi26J7UtAUC4moaETLbMo8KS1Be6ME',
  't3aNRLLsL2y8xcjPheZZwFy3Pcv7CsTwBec',
  't3gQDEavk5VzAAHK8TrQu2BWDLxEiF1unBm',
  't3Rbykhx1TUFrgXrmBYrAJe2STxRKFL7G9r',
  't3aaW4aTdP7a8d1VTE1Bod2yhbeggHgMajR',
  't3YEiAa6uEjXwFL2v5ztU1fn3yKgzMQqNyo',
  't3g1yUUwt2PbmDvMDevTCPWUcbDatL2iQGP',
  't3dPWnep6YqGPuY1CecgbeZrY9iUwH8Yd4z',
  't3QRZXHDPh2hwU46iQs2776kRuuWfwFp4dV',
  't3enhACRxi1ZD7e8ePomVGKn7wp7N9fFJ3r',
  't3PkLgT71TnF112nSwBToXsD77yNbx2gJJY',
  't3LQtHUDoe7ZhhvddRv4vnaoNAhCr2f4oFN',
  't3fNcdBUbycvbCtsD2n9q3LuxG7jVPvFB8L',
  't3dKojUU2EMjs28nHV84TvkVEUDu1M1FaEx',
  't3aKH6NiWN1ofGd8c19rZiqgYpkJ3n679ME',
  't3MEXDF9Wsi63KwpPuQdD6by32Mw2bNTbEa',
  't3WDhPfik343yNmPTqtkZAoQZeqA83K7Y3f',
  't3PSn5TbMMAEw7Eu36DYctFezRzpX1hzf3M',
  't3R3Y5vnBLrEn8L6wFjPjBLnxSUQsKnmFpv',
  't3Pcm737EsVkGTbhsu2NekKtJeG92mvYyoN',
];
const TESTNET_FOUNDERS_ADDRESSES: readonly string[] = [
  't2UNzUUx8mWBCRYPRezvA363EYXyEpHokyi',
  't2N9PH9Wk9xjqYg9iin1Ua3aekJqfAtE543',
  't2NGQjYMQhFndDHguvUw4wZdNdsssA6K7x2',
  't2ENg7hHVqqs9JwU5cgjvSbxnT2a9USNfhy',
  't2BkYdVCHzvTJJUTx4yZB8qeegD8QsPx8bo',
  't2J8q1xH1EuigJ52MfExyyjYtN3VgvshKDf',
  't2Crq9mydTm37kZokC68HzT6yez3t2FBnFj',
  't2EaMPUiQ1kthqcP5UEkF42CAFKJqXCkXC9',
  't2F9dtQc63JDDyrhnfpzvVYTJcr57MkqA12',
  't2LPirmnfYSZc481GgZBa6xUGcoovfytBnC',
  't26xfxoSw2UV9Pe5o3C8V4YybQD4SESfxtp',
  't2D3k4fNdErd66YxtvXEdft9xuLoKD7CcVo',
  't2DWYBkxKNivdmsMiivNJzutaQGqmoRjRnL',
  't2C3kFF9iQRxfc4B9zgbWo4dQLLqzqjpuGQ',
  't2MnT5tzu9HSKcppRyUNwoTp8MUueuSGNaB',
  't2AREsWdoW1F8EQYsScsjkgqobmgrkKeUkK',
  't2Vf4wKcJ3ZFtLj4jezUUKkwYR92BLHn5UT',
  't2K3fdViH6R5tRuXLphKyoYXyZhyWGghDNY',
  't2VEn3KiKyHSGyzd3nDw6ESWtaCQHwuv9WC',
  't2F8XouqdNMq6zzEvxQXHV1TjwZRHwRg8gC',
  't2BS7Mrbaef3fA4xrmkvDisFVXVrRBnZ6Qj',
  't2FuSwoLCdBVPwdZuYoHrEzxAb9qy4qjbnL',
  't2SX3U8NtrT6gz5Db1AtQCSGjrpptr8JC6h',
  't2V51gZNSoJ5kRL74bf9YTtbZuv8Fcqx2FH',
  't2FyTsLjjdm4jeVwir4xzj7FAkUidbr1b4R',
  't2EYbGLekmpqHyn8UBF6kqpahrYm7D6N1Le',
  't2NQTrStZHtJECNFT3dUBLYA9AErxPCmkka',
  't2GSWZZJzoesYxfPTWXkFn5UaxjiYxGBU2a',
  't2RpffkzyLRevGM3w9aWdqMX6bd8uuAK3vn',
  't2JzjoQqnuXtTGSN7k7yk5keURBGvYofh1d',
  't2AEefc72ieTnsXKmgK2bZNckiwvZe3oPNL',
  't2NNs3ZGZFsNj2wvmVd8BSwSfvETgiLrD8J',
  't2ECCQPVcxUCSSQopdNquguEPE14HsVfcUn',
  't2JabDUkG8TaqVKYfqDJ3rqkVdHKp6hwXvG',
  't2FGzW5Zdc8Cy98ZKmRygsVGi6oKcmYir9n',
  't2DUD8a21FtEFn42oVLp5NGbogY13uyjy9t',
  't2UjVSd3zheHPgAkuX8WQW2CiC9xHQ8EvWp',
  't2TBUAhELyHUn8i6SXYsXz5Lmy7kDzA1uT5',
  't2Tz3uCyhP6eizUWDc3bGH7XUC9GQsEyQNc',
  't2NysJSZtLwMLWEJ6MH3BsxRh6h27mNcsSy',
  't2KXJVVyyrjVxxSeazbY9ksGyft4qsXUNm9',
  't2J9YYtH31cveiLZzjaE4AcuwVho6qjTNzp',
  't2QgvW4sP9zaGpPMH1GRzy7cpydmuRfB4AZ',
  't2NDTJP9MosKpyFPHJmfjc5pGCvAU58XGa4',
  't29pHDBWq7qN4EjwSEHg8wEqYe9pkmVrtRP',
  't2Ez9KM8VJLuArcxuEkNRAkhNvidKkzXcjJ',
  't2D5y7J5fpXajLbGrMBQkFg2mFN8fo3n8cX',
  't2UV2wr1PTaUiybpkV3FdSdGxUJeZdZztyt',
];
const MAINNET_ZIP214_BP_ADDRESSES: readonly string[] = [
  't3LmX1cxWPPPqL4TZHx42HU3U5ghbFjRiif',
  't3Toxk1vJQ6UjWQ42tUJz2rV2feUWkpbTDs',
  't3ZBdBe4iokmsjdhMuwkxEdqMCFN16YxKe6',
  't3ZuaJziLM8xZ32rjDUzVjVtyYdDSz8GLWB',
  't3bAtYWa4bi8VrtvqySxnbr5uqcG9czQGTZ',
  't3dktADfb5Rmxncpe1HS5BRS5Gcj7MZWYBi',
  't3hgskquvKKoCtvxw86yN7q8bzwRxNgUZmc',
  't3R1VrLzwcxAZzkX4mX3KGbWpNsgtYtMntj',
  't3ff6fhemqPMVujD3AQurxRxTdvS1pPSaa2',
  't3cEUQFG3KYnFG6qYhPxSNgGi3HDjUPwC3J',
  't3WR9F5U4QvUFqqx9zFmwT6xFqduqRRXnaa',
  't3PYc1LWngrdUrJJbHkYPCKvJuvJjcm85Ch',
  't3bgkjiUeatWNkhxY3cWyLbTxKksAfk561R',
  't3Z5rrR8zahxUpZ8itmCKhMSfxiKjUp5Dk5',
  't3PU1j7YW3fJ67jUbkGhSRto8qK2qXCUiW3',
  't3S3yaT7EwNLaFZCamfsxxKwamQW2aRGEkh',
  't3eutXKJ9tEaPSxZpmowhzKhPfJvmtwTEZK',
  't3gbTb7brxLdVVghSPSd3ycGxzHbUpukeDm',
  't3UCKW2LrHFqPMQFEbZn6FpjqnhAAbfpMYR',
  't3NyHsrnYbqaySoQqEQRyTWkjvM2PLkU7Uu',
  't3QEFL6acxuZwiXtW3YvV6njDVGjJ1qeaRo',
  't3PdBRr2S1XTDzrV8bnZkXF3SJcrzHWe1wj',
  't3ZWyRPpWRo23pKxTLtWsnfEKeq9T4XPxKM',
  't3he6QytKCTydhpztykFsSsb9PmBT5JBZLi',
  't3VWxWDsLb2TURNEP6tA1ZSeQzUmPKFNxRY',
  't3NmWLvZkbciNAipauzsFRMxoZGqmtJksbz',
  't3cKr4YxVPvPBG1mCvzaoTTdBNokohsRJ8n',
  't3T3smGZn6BoSFXWWXa1RaoQdcyaFjMfuYK',
  't3gkDUe9Gm4GGpjMk86TiJZqhztBVMiUSSA',
  't3eretuBeBXFHe5jAqeSpUS1cpxVh51fAeb',
  't3dN8g9zi2UGJdixGe9txeSxeofLS9t3yFQ',
  't3S799pq9sYBFwccRecoTJ3SvQXRHPrHqvx',
  't3fhYnv1S5dXwau7GED3c1XErzt4n4vDxmf',
  't3cmE3vsBc5xfDJKXXZdpydCPSdZqt6AcNi',
  't3h5fPdjJVHaH4HwynYDM5BB3J7uQaoUwKi',
  't3Ma35c68BgRX8sdLDJ6WR1PCrKiWHG4Da9',
  't3LokMKPL1J8rkJZvVpfuH7dLu6oUWqZKQK',
  't3WFFGbEbhJWnASZxVLw2iTJBZfJGGX73mM',
  't3L8GLEsUn4QHNaRYcX3EGyXmQ8kjpT1zTa',
  't3PgfByBhaBSkH8uq4nYJ9ZBX4NhGCJBVYm',
  't3WecsqKDhWXD4JAgBVcnaCC2itzyNZhJrv',
  't3ZG9cSfopnsMQupKW5v9sTotjcP5P6RTbn',
  't3hC1Ywb5zDwUYYV8LwhvF5rZ6m49jxXSG5',
  't3VgMqDL15ZcyQDeqBsBW3W6rzfftrWP2yB',
  't3LC94Y6BwLoDtBoK2NuewaEbnko1zvR9rm',
  't3cWCUZJR3GtALaTcatrrpNJ3MGbMFVLRwQ',
  't3YYF4rPLVxDcF9hHFsXyc5Yq1TFfbojCY6',
  't3XHAGxRP2FNfhAjxGjxbrQPYtQQjc3RCQD',
];
const TESTNET_ZIP214_BP_ADDRESSES: readonly string[] = [
  't26ovBdKAJLtrvBsE2QGF4nqBkEuptuPFZz',
  't26ovBdKAJLtrvBsE2QGF4nqBkEuptuPFZz',
  't26ovBdKAJLtrvBsE2QGF4nqBkEuptuPFZz',
  't26ovBdKAJLtrvBsE2QGF4nqBkEuptuPFZz',
  't2NNHrgPpE388atmWSF4DxAb3xAoW5Yp45M',
  't2VMN28itPyMeMHBEd9Z1hm6YLkQcGA1Wwe',
  't2CHa1TtdfUV8UYhNm7oxbzRyfr8616BYh2',
  't2F77xtr28U96Z2bC53ZEdTnQSUAyDuoa67',
  't2ARrzhbgcpoVBDPivUuj6PzXzDkTBPqfcT',
  't278aQ8XbvFR15mecRguiJDQQVRNnkU8kJw',
  't2Dp1BGnZsrTXZoEWLyjHmg3EPvmwBnPDGB',
  't2KzeqXgf4ju33hiSqCuKDb8iHjPCjMq9iL',
  't2Nyxqv1BiWY1eUSiuxVw36oveawYuo18tr',
  't2DKFk5JRsVoiuinK8Ti6eM4Yp7v8BbfTyH',
  't2CUaBca4k1x36SC4q8Nc8eBoqkMpF3CaLg',
  't296SiKL7L5wvFmEdMxVLz1oYgd6fTfcbZj',
  't29fBCFbhgsjL3XYEZ1yk1TUh7eTusB6dPg',
  't2FGofLJXa419A76Gpf5ncxQB4gQXiQMXjK',
  't2ExfrnRVnRiXDvxerQ8nZbcUQvNvAJA6Qu',
  't28JUffLp47eKPRHKvwSPzX27i9ow8LSXHx',
  't2JXWPtrtyL861rFWMZVtm3yfgxAf4H7uPA',
  't2QdgbJoWfYHgyvEDEZBjHmgkr9yNJff3Hi',
  't2QW43nkco8r32ZGRN6iw6eSzyDjkMwCV3n',
  't2DgYDXMJTYLwNcxighQ9RCgPxMVATRcUdC',
  't2Bop7dg33HGZx3wunnQzi2R2ntfpjuti3M',
  't2HVeEwovcLq9RstAbYkqngXNEsCe2vjJh9',
  't2HxbP5keQSx7p592zWQ5bJ5GrMmGDsV2Xa',
  't2TJzUg2matao3mztBRJoWnJY6ekUau6tPD',
  't29pMzxmo6wod25YhswcjKv3AFRNiBZHuhj',
  't2QBQMRiJKYjshJpE6RhbF7GLo51yE6d4wZ',
  't2F5RqnqguzZeiLtYHFx4yYfy6pDnut7tw5',
  't2CHvyZANE7XCtg8AhZnrcHCC7Ys1jJhK13',
  't2BRzpMdrGWZJ2upsaNQv6fSbkbTy7EitLo',
  't2BFixHGQMAWDY67LyTN514xRAB94iEjXp3',
  't2Uvz1iVPzBEWfQBH1p7NZJsFhD74tKaG8V',
  't2CmFDj5q6rJSRZeHf1SdrowinyMNcj438n',
  't2ErNvWEReTfPDBaNizjMPVssz66aVZh1hZ',
  't2GeJQ8wBUiHKDVzVM5ZtKfY5reCg7CnASs',
  't2L2eFtkKv1G6j55kLytKXTGuir4raAy3yr',
  't2EK2b87dpPazb7VvmEGc8iR6SJ289RywGL',
  't2DJ7RKeZJxdA4nZn8hRGXE8NUyTzjujph9',
  't2K1pXo4eByuWpKLkssyMLe8QKUbxnfFC3H',
  't2TB4mbSpuAcCWkH94Leb27FnRxo16AEHDg',
  't2Phx4gVL4YRnNsH3jM1M7jE4Fo329E66Na',
  't2VQZGmeNomN8c3USefeLL9nmU6M8x8CVzC',
  't2RicCvTVTY5y9JkreSRv3Xs8q2K67YxHLi',
  't2JrSLxTGc8wtPDe9hwbaeUjCrCfc4iZnDD',
  't2Uh9Au1PDDSw117sAbGivKREkmMxVC5tZo',
  't2FDwoJKLeEBMTy3oP7RLQ1Fihhvz49a3Bv',
  't2FY18mrgtb7QLeHA8ShnxLXuW8cNQ2n1v8',
  't2L15TkDYum7dnQRBqfvWdRe8Yw3jVy9z7g',
];

const MAINNET_ZIP214_ZF_ADDRESS = 't3dvVE3SQEi7kqNzwrfNePxZ1d4hUyztBA1';
const MAINNET_ZIP214_MG_ADDRESS = 't3XyYW8yBFRuMnfvm5KLGFbEVz25kckZXym';
const MAINNET_ZCG_ADDRESS = 't3cFfPt1Bcvgez9ZbMBFWeZsskxTkPzGCow';
const MAINNET_ZIP271_ADDRESS = 't3ev37Q2uL1sfTsiJQJiWJoFzQpDhmnUwYo';

const TESTNET_ZIP214_ZF_ADDRESS = 't27eWDgjFYJGVXmzrXeVjnb5J3uXDM9xH9v';
const TESTNET_ZIP214_MG_ADDRESS = 't2Gvxv2uNM7hbbACjNox4H6DjByoKZ2Fa3P';
const TESTNET_ZCG_ADDRESS = 't2HifwjUj9uyxr9bknR8LFuQbc98c3vkXtu';
const TESTNET_ZIP271_ADDRESS = 't2RnBRiqrN1nW4ecZs1Fj3WWjNdnSs4kiX8';

const REGTEST_FOUNDERS_ADDRESSES: readonly string[] = ['t2FwcEhFdNXuFMv1tcYwaBJtYVtMj8b1uTg'];

const FOUNDERS_ADDRESSES: Record<NetworkName, readonly string[]> = {
  mainnet: MAINNET_FOUNDERS_ADDRESSES,
  testnet: TESTNET_FOUNDERS_ADDRESSES,
  regtest: REGTEST_FOUNDERS_ADDRESSES,
};

// --- Founders' reward -------------------------------------------------------------------------

/**
 * `GetFoundersRewardAddressAtHeight`: the founders' P2SH address for `height`. The address
 * changes every `(lastPreBlossomFRHeight + n) / n` blocks; after Blossom the height is first
 * mapped back onto the pre-Blossom scale (ZIP 208's FounderAddressAdjustedHeight).
 */
export function foundersRewardAddress(height: number, network: NetworkRef): string {
  const params = resolveNetwork(network);
  const addresses = FOUNDERS_ADDRESSES[params.name];
  const preBlossomMaxHeight = lastFoundersRewardHeight(0, params);
  const blossom = subsidySchedule(params).blossomHeight;
  let adjusted = height;
  if (blossom !== null && height >= blossom) {
    adjusted = blossom + Math.trunc((height - blossom) / BLOSSOM_POW_TARGET_SPACING_RATIO);
  }
  if (!(adjusted > 0 && adjusted <= preBlossomMaxHeight)) {
    throw new RangeError(`no founders' reward address for height ${height} on ${params.name}`);
  }
  const changeInterval = Math.trunc((preBlossomMaxHeight + addresses.length) / addresses.length);
  return addresses[Math.trunc(adjusted / changeInterval)]!;
}

// --- Funding streams ----------------------------------------------------------------------------

/** `Consensus::FundingStreamIndex`, in zcashd's order. */
export type FundingStreamId =
  'FS_ZIP214_BP' | 'FS_ZIP214_ZF' | 'FS_ZIP214_MG' | 'FS_FPF_ZCG' | 'FS_DEFERRED' | 'FS_FPF_ZCG_H3' | 'FS_CCF_H3';

/** `Consensus::FSInfo`: what a stream is and its share of the subsidy. */
export interface FundingStreamInfo {
  id: FundingStreamId;
  /** zcashd's recipient name (getblocksubsidy prints it). */
  recipientName: string;
  specification: string;
  numerator: bigint;
  denominator: bigint;
}

const ZIP214 = 'https://zips.z.cash/zip-0214';

const percent = (id: FundingStreamId, recipientName: string, share: bigint): FundingStreamInfo => ({
  id,
  recipientName,
  specification: ZIP214,
  numerator: share,
  denominator: 100n,
});

/** `Consensus::FundingStreamInfo`, indexed like FundingStreamId. */
export const FUNDING_STREAM_INFO: readonly FundingStreamInfo[] = [
  percent('FS_ZIP214_BP', 'Electric Coin Company', 7n),
  percent('FS_ZIP214_ZF', 'Zcash Foundation', 5n),
  percent('FS_ZIP214_MG', 'Major Grants', 8n),
  percent('FS_FPF_ZCG', 'Zcash Community Grants NU6', 8n),
  percent('FS_DEFERRED', 'Lockbox NU6', 12n),
  percent('FS_FPF_ZCG_H3', 'Zcash Community Grants to third halving', 8n),
  percent('FS_CCF_H3', 'Coinholder-Controlled Fund to third halving', 12n),
];

/** A transparent address receives the stream as a coinbase output; the lockbox receives it with no output. */
export type FundingStreamRecipient = { kind: 'address'; address: string } | { kind: 'lockbox' };

const LOCKBOX: FundingStreamRecipient = Object.freeze({ kind: 'lockbox' });

/** One configured stream: active for startHeight ≤ h < endHeight, one recipient per funding period. */
export interface FundingStream {
  info: FundingStreamInfo;
  startHeight: number;
  endHeight: number;
  recipients: readonly FundingStreamRecipient[];
}

/** `FSInfo::Value`: floor(subsidy · numerator / denominator). */
export function fundingStreamValue(info: FundingStreamInfo, subsidy: bigint): bigint {
  return (subsidy * info.numerator) / info.denominator;
}

/** nFundingPeriodLength: 48 funding periods per post-Blossom halving interval (35000 blocks on mainnet). */
export function fundingPeriodLength(network: NetworkRef): number {
  return Math.trunc(subsidySchedule(network).postBlossomHalvingInterval / 48);
}

/**
 * `FundingPeriodIndex`: which recipient of a stream starting at `startHeight` applies at
 * `height`. Periods are aligned to the first halving, so a stream that starts off a period
 * boundary has a shorter first period.
 */
export function fundingPeriodIndex(startHeight: number, height: number, network: NetworkRef): number {
  if (startHeight > height) throw new RangeError(`height ${height} is before the stream start ${startHeight}`);
  const length = fundingPeriodLength(network);
  const firstHalving = halvingHeight(startHeight, 1, network);
  // C++ `%` is a remainder; zcashd turns it into a modulus.
  let offset = (startHeight - firstHalving) % length;
  if (offset < 0) offset += length;
  return Math.trunc((height - startHeight + offset) / length);
}

/** The recipient of `stream` at `height` (`FundingStream::Recipient`). */
export function fundingStreamRecipient(stream: FundingStream, height: number, network: NetworkRef): FundingStreamRecipient {
  const i = fundingPeriodIndex(stream.startHeight, height, network);
  const r = stream.recipients[i];
  if (r === undefined) throw new RangeError(`${stream.info.id} has no recipient for period ${i} (height ${height})`);
  return r;
}

function info(id: FundingStreamId): FundingStreamInfo {
  return FUNDING_STREAM_INFO.find((x) => x.id === id)!;
}

function required(height: number | null, what: NetworkUpgrade): number {
  if (height === null) throw new Error(`${what} has no activation height; its funding streams cannot be defined`);
  return height;
}

/** `FundingStream::ValidateFundingStream`, run on every configured stream as zcashd does at start-up. */
function validatedStream(
  network: NetworkParams,
  id: FundingStreamId,
  startHeight: number,
  endHeight: number,
  recipients: readonly FundingStreamRecipient[],
): FundingStream {
  if (!isUpgradeActive(network, 'Canopy', startHeight)) {
    throw new Error(`${id}: Canopy network upgrade not active at funding stream start height.`);
  }
  if (endHeight < startHeight) throw new Error(`${id}: Illegal start/end height combination for funding stream.`);
  const expected = fundingPeriodIndex(startHeight, endHeight - 1, network) + 1;
  if (expected > recipients.length) {
    throw new Error(`${id}: Insufficient recipient identifiers to fully exhaust funding stream.`);
  }
  if (!isUpgradeActive(network, 'NU6', startHeight) && recipients.some((r) => r.kind === 'lockbox')) {
    throw new Error(`${id}: NU6 network upgrade not active at lockbox period start height.`);
  }
  return { info: info(id), startHeight, endHeight, recipients };
}

const addressStream = (addresses: readonly string[]): FundingStreamRecipient[] =>
  addresses.map((address) => ({ kind: 'address', address }));

const repeated = (address: string, periods: number): FundingStreamRecipient[] => addressStream(new Array<string>(periods).fill(address));

/** `AddZIP207LockboxStream`: one lockbox recipient per funding period of the range. */
function lockboxStream(network: NetworkParams, id: FundingStreamId, start: number, end: number): FundingStream {
  const periods = fundingPeriodIndex(start, end - 1, network) + 1;
  return validatedStream(network, id, start, end, new Array<FundingStreamRecipient>(periods).fill(LOCKBOX));
}

interface NetworkStreamHeights {
  /** FS_ZIP214_* end (mainnet: NU6; testnet: a literal before NU6). */
  zip214End: number | 'NU6';
  /** FS_FPF_ZCG / FS_DEFERRED end (mainnet: NU6.1; testnet: a literal before NU6.1). */
  nu6End: number | 'NU6.1';
  /** FS_FPF_ZCG_H3 / FS_CCF_H3 end: the third halving. */
  h3End: number;
  bp: readonly string[];
  zf: string;
  mg: string;
  zcg: string;
  /** Recipient counts chainparams gives the single-address streams (one per funding period). */
  zip214Periods: number;
  zcgPeriods: number;
  zcgH3Periods: number;
}

const STREAM_LAYOUT: Record<'mainnet' | 'testnet', NetworkStreamHeights> = {
  mainnet: {
    zip214End: 'NU6',
    nu6End: 'NU6.1',
    h3End: 4_406_400,
    bp: MAINNET_ZIP214_BP_ADDRESSES,
    zf: MAINNET_ZIP214_ZF_ADDRESS,
    mg: MAINNET_ZIP214_MG_ADDRESS,
    zcg: MAINNET_ZCG_ADDRESS,
    zip214Periods: 48,
    zcgPeriods: 12,
    zcgH3Periods: 36,
  },
  testnet: {
    zip214End: 2_796_000,
    nu6End: 3_396_000,
    h3End: 4_476_000,
    bp: TESTNET_ZIP214_BP_ADDRESSES,
    zf: TESTNET_ZIP214_ZF_ADDRESS,
    mg: TESTNET_ZIP214_MG_ADDRESS,
    zcg: TESTNET_ZCG_ADDRESS,
    zip214Periods: 51,
    zcgPeriods: 13,
    zcgH3Periods: 27,
  },
};

function buildStreams(network: NetworkParams): FundingStream[] {
  // Regtest defines no streams unless node options add them.
  if (network.name === 'regtest') return [];
  const layout = STREAM_LAYOUT[network.name];
  const canopy = required(activationHeight(network, 'Canopy'), 'Canopy');
  const nu6 = required(activationHeight(network, 'NU6'), 'NU6');
  const nu61 = required(activationHeight(network, 'NU6.1'), 'NU6.1');
  const zip214End = layout.zip214End === 'NU6' ? nu6 : layout.zip214End;
  const nu6End = layout.nu6End === 'NU6.1' ? nu61 : layout.nu6End;
  return [
    validatedStream(network, 'FS_ZIP214_BP', canopy, zip214End, addressStream(layout.bp)),
    validatedStream(network, 'FS_ZIP214_ZF', canopy, zip214End, repeated(layout.zf, layout.zip214Periods)),
    validatedStream(network, 'FS_ZIP214_MG', canopy, zip214End, repeated(layout.mg, layout.zip214Periods)),
    validatedStream(network, 'FS_FPF_ZCG', nu6, nu6End, repeated(layout.zcg, layout.zcgPeriods)),
    lockboxStream(network, 'FS_DEFERRED', nu6, nu6End),
    validatedStream(network, 'FS_FPF_ZCG_H3', nu61, layout.h3End, repeated(layout.zcg, layout.zcgH3Periods)),
    lockboxStream(network, 'FS_CCF_H3', nu61, layout.h3End),
  ];
}

const streamCache = new WeakMap<NetworkParams, readonly FundingStream[]>();

/** Every funding stream configured on the network, in FundingStreamIndex order. */
export function fundingStreams(network: NetworkRef): readonly FundingStream[] {
  const params = resolveNetwork(network);
  let streams = streamCache.get(params);
  if (streams === undefined) {
    streams = Object.freeze(buildStreams(params));
    streamCache.set(params, streams);
  }
  return streams;
}

/** `GetActiveFundingStreams`: the streams with start ≤ h < end, only once Canopy is active. */
export function activeFundingStreams(height: number, network: NetworkRef): FundingStream[] {
  if (!isUpgradeActive(resolveNetwork(network), 'Canopy', height)) return [];
  return fundingStreams(network).filter((s) => height >= s.startHeight && height < s.endHeight);
}

/** One (recipient, amount) pair the block at a height owes. */
export interface FundingStreamElement {
  stream: FundingStream;
  recipient: FundingStreamRecipient;
  amount: bigint;
}

const recipientKey = (r: FundingStreamRecipient): string => (r.kind === 'lockbox' ? 'lockbox' : `address:${r.address}`);

/**
 * `GetActiveFundingStreamElements`: the (recipient, amount) pairs due at `height`. zcashd
 * collects them in a std::set, so identical pairs count once; kept here in stream order.
 */
export function fundingStreamElements(
  height: number,
  network: NetworkRef,
  subsidy: bigint = blockSubsidy(height, network),
): FundingStreamElement[] {
  const out: FundingStreamElement[] = [];
  const seen = new Set<string>();
  for (const stream of activeFundingStreams(height, network)) {
    const recipient = fundingStreamRecipient(stream, height, network);
    const amount = fundingStreamValue(stream.info, subsidy);
    const key = `${recipientKey(recipient)}|${amount}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ stream, recipient, amount });
  }
  return out;
}

// --- ZIP 271 one-time lockbox disbursement -----------------------------------------------------

/** `Consensus::OnetimeLockboxDisbursement`: paid by the coinbase of the upgrade's activation block. */
export interface LockboxDisbursement {
  /** The upgrade whose activation block pays it. */
  upgrade: NetworkUpgrade;
  amount: bigint;
  /** P2SH address of the recipient. */
  address: string;
}

/** 78750 ZEC, paid as 10 chunks of 7875 ZEC "for convenience of distribution". */
export const NU6_1_DISBURSEMENT_TOTAL = 7_875_000_000_000n;
const NU6_1_CHUNKS = 10;
const NU6_1_CHUNK = NU6_1_DISBURSEMENT_TOTAL / BigInt(NU6_1_CHUNKS);

const disbursementsTo = (address: string): readonly LockboxDisbursement[] =>
  Object.freeze(Array.from({ length: NU6_1_CHUNKS }, (): LockboxDisbursement => ({ upgrade: 'NU6.1', amount: NU6_1_CHUNK, address })));

/** The configured one-time disbursements per network (`vOnetimeLockboxDisbursements`). */
export const LOCKBOX_DISBURSEMENTS: Record<NetworkName, readonly LockboxDisbursement[]> = {
  mainnet: disbursementsTo(MAINNET_ZIP271_ADDRESS),
  testnet: disbursementsTo(TESTNET_ZIP271_ADDRESS),
  regtest: [],
};

/**
 * `GetLockboxDisbursementsForHeight`: the disbursements whose upgrade activates exactly at
 * `height`, and only when NU6.1 is active there.
 */
export function lockboxDisbursementsAt(height: number, network: NetworkRef): readonly LockboxDisbursement[] {
  const params = resolveNetwork(network);
  if (!isUpgradeActive(params, 'NU6.1', height)) return [];
  return LOCKBOX_DISBURSEMENTS[params.name].filter((d) => activationHeight(params, d.upgrade) === height);
}

// --- The whole split of one block's subsidy ----------------------------------------------------

/** One coinbase output the consensus rules require at a height. */
export interface RequiredPayment {
  /** 'founders', a funding stream id, or 'lockbox-disbursement'. */
  source: 'founders' | FundingStreamId | 'lockbox-disbursement';
  address: string;
  amount: bigint;
}

/** Everything a block's subsidy is divided into at one height. */
export interface BlockRewardSplit {
  height: number;
  subsidy: bigint;
  /** Founders' reward (pre-Canopy), 0 when none. */
  foundersReward: bigint;
  /** Transparent funding-stream outputs (excludes the lockbox streams). */
  fundingStreams: bigint;
  /** Funding-stream value deferred to the lockbox (no output). */
  lockboxInflow: bigint;
  /** One-time lockbox disbursements paid by this coinbase (ZIP 271). */
  lockboxDisbursement: bigint;
  /** zcashd's per-block lockbox delta (nLockboxValue): inflow − disbursements. */
  lockboxDelta: bigint;
  /** What is left to the miner before fees: subsidy − founders − streams − lockbox inflow. */
  minerSubsidy: bigint;
  /**
   * Every output the coinbase must contain: founders' reward, transparent funding streams,
   * then the disbursement chunks (disbursed value comes from the lockbox, not the subsidy).
   */
  requiredPayments: RequiredPayment[];
}

export function blockRewardSplit(height: number, network: NetworkRef): BlockRewardSplit {
  const params = resolveNetwork(network);
  const subsidy = blockSubsidy(height, params);
  const requiredPayments: RequiredPayment[] = [];
  const foundersReward = foundersRewardAmount(height, params);
  if (foundersReward > 0n) {
    const address = foundersRewardAddress(height, params);
    requiredPayments.push({ source: 'founders', address, amount: foundersReward });
  }
  let fundingStreamsTotal = 0n;
  let lockboxInflow = 0n;
  for (const e of fundingStreamElements(height, params, subsidy)) {
    if (e.recipient.kind === 'lockbox') {
      lockboxInflow += e.amount;
    } else {
      fundingStreamsTotal += e.amount;
      requiredPayments.push({ source: e.stream.info.id, address: e.recipient.address, amount: e.amount });
    }
  }
  let lockboxDisbursement = 0n;
  for (const d of lockboxDisbursementsAt(height, params)) {
    lockboxDisbursement += d.amount;
    requiredPayments.push({ source: 'lockbox-disbursement', address: d.address, amount: d.amount });
  }
  return {
    height,
    subsidy,
    foundersReward,
    fundingStreams: fundingStreamsTotal,
    lockboxInflow,
    lockboxDisbursement,
    lockboxDelta: lockboxInflow - lockboxDisbursement,
    minerSubsidy: subsidy - foundersReward - fundingStreamsTotal - lockboxInflow,
    requiredPayments,
  };
}

/**
 * The per-block lockbox delta alone (ComputePoolDeltas' nLockboxValue): Σ lockbox stream
 * amounts − Σ disbursements at `height`. Same result as blockRewardSplit(...).lockboxDelta,
 * without allocating: the importer calls it for every block.
 */
export function lockboxDelta(height: number, network: NetworkRef): bigint {
  const params = resolveNetwork(network);
  let delta = 0n;
  if (isUpgradeActive(params, 'NU6.1', height)) {
    for (const d of LOCKBOX_DISBURSEMENTS[params.name]) {
      if (activationHeight(params, d.upgrade) === height) delta -= d.amount;
    }
  }
  if (!isUpgradeActive(params, 'Canopy', height)) return delta;
  let counted: bigint[] | undefined;
  for (const s of fundingStreams(params)) {
    if (height < s.startHeight || height >= s.endHeight) continue;
    if (fundingStreamRecipient(s, height, params).kind !== 'lockbox') continue;
    const amount = fundingStreamValue(s.info, blockSubsidy(height, params));
    // zcashd's std::set counts equal (lockbox, amount) pairs once.
    if (counted?.includes(amount)) continue;
    (counted ??= []).push(amount);
    delta += amount;
  }
  return delta;
}

/** The scriptPubKey paying a transparent address (P2SH `a914…87` or P2PKH `76a914…88ac`). */
export function addressScript(address: string, network: NetworkRef): Uint8Array {
  const params = resolveNetwork(network);
  const decoded = decodeTransparentAddress(address, params);
  if (decoded === null) throw new Error(`${address} is not a ${params.name} transparent address`);
  if (decoded.kind === 'p2sh') return Uint8Array.of(0xa9, 0x14, ...decoded.hash, 0x87);
  return Uint8Array.of(0x76, 0xa9, 0x14, ...decoded.hash, 0x88, 0xac);
}

const recipientScripts = new Map<string, Uint8Array>();

/**
 * `addressScript` for the consensus rules' recipients (founders' reward, funding streams,
 * lockbox disbursements), decoded once per address: the rules compare a block's coinbase with
 * them on every block. The returned bytes are shared; callers only read them.
 */
export function recipientScript(address: string, network: NetworkRef): Readonly<Uint8Array> {
  const key = `${resolveNetwork(network).name}:${address}`;
  let script = recipientScripts.get(key);
  if (!script) recipientScripts.set(key, (script = addressScript(address, network)));
  return script;
}
