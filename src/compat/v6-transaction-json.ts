/**
 * The JSON form of a v6 transaction (ZIP 229) under `-compat=current`, member by member, with where
 * each member comes from: no zcashd release prints a v6 transaction, so this table is the format's
 * definition. docs/compatibility.md's "v6 transactions" section is generated from it, and
 * test/compat/v6-transaction-json.test.ts holds the renderer (render/tx.ts) to it.
 */

export interface V6JsonMember {
  /** Path in the transaction object; `[]` marks every element of an array. */
  readonly member: string;
  /** The JSON type and how the value is written. */
  readonly value: string;
  /** Where the member and its form come from. */
  readonly origin: string;
}

const ORCHARD_SHAPED = (pool: 'orchard' | 'ironwood', origin: string): V6JsonMember[] => [
  { member: pool, value: 'object, always present', origin },
  { member: `${pool}.actions`, value: 'array, empty without actions', origin: "zcashd's Orchard object" },
  { member: `${pool}.actions[].cv`, value: 'hex, raw bytes (HexStr)', origin: "zcashd's Orchard action" },
  { member: `${pool}.actions[].nullifier`, value: 'hex, raw bytes', origin: "zcashd's Orchard action" },
  { member: `${pool}.actions[].rk`, value: 'hex, raw bytes', origin: "zcashd's Orchard action" },
  { member: `${pool}.actions[].cmx`, value: 'hex, raw bytes', origin: "zcashd's Orchard action" },
  { member: `${pool}.actions[].ephemeralKey`, value: 'hex, raw bytes', origin: "zcashd's Orchard action" },
  { member: `${pool}.actions[].encCiphertext`, value: 'hex, 580 bytes', origin: "zcashd's Orchard action" },
  { member: `${pool}.actions[].outCiphertext`, value: 'hex, 80 bytes', origin: "zcashd's Orchard action" },
  { member: `${pool}.actions[].spendAuthSig`, value: 'hex, 64 bytes', origin: "zcashd's Orchard action" },
  { member: `${pool}.valueBalance`, value: 'amount, 8 decimals (ValueFromAmount)', origin: "zcashd's Orchard object" },
  { member: `${pool}.valueBalanceZat`, value: 'integer, zatoshis', origin: "zcashd's Orchard object" },
  { member: `${pool}.flags`, value: 'object, only with actions', origin: "zcashd's Orchard object" },
  { member: `${pool}.flags.enableSpends`, value: 'boolean, flags bit 0', origin: "zcashd's Orchard object" },
  { member: `${pool}.flags.enableOutputs`, value: 'boolean, flags bit 1', origin: "zcashd's Orchard object" },
  {
    member: `${pool}.flags.enableCrossAddress`,
    value: 'boolean, flags bit 2',
    origin: "ZIP 229 (new at NU6.3), named in zcashd's style after the other flags",
  },
  { member: `${pool}.anchor`, value: 'hex, raw bytes, only with actions', origin: "zcashd's Orchard object" },
  { member: `${pool}.proof`, value: 'hex, only with actions', origin: "zcashd's Orchard object" },
  { member: `${pool}.bindingSig`, value: 'hex, 64 bytes, only with actions', origin: "zcashd's Orchard object" },
];

/** Every member of a v6 transaction's object, in the order render/tx.ts writes them. */
export const V6_TRANSACTION_MEMBERS: readonly V6JsonMember[] = [
  { member: 'txid', value: 'hex, reversed (GetHex)', origin: 'zcashd v5; the ZIP 229 txid' },
  { member: 'authdigest', value: 'hex, reversed (GetHex)', origin: 'zcashd v5; the ZIP 229 auth digest' },
  { member: 'size', value: 'integer', origin: 'zcashd v5' },
  { member: 'overwintered', value: 'boolean, true', origin: 'zcashd v5' },
  { member: 'version', value: 'integer, 6', origin: 'zcashd v5' },
  { member: 'versiongroupid', value: 'string, "d884b698"', origin: "zcashd v5 (HexInt); ZIP 229's version group id" },
  { member: 'locktime', value: 'integer', origin: 'zcashd v5' },
  { member: 'expiryheight', value: 'integer', origin: 'zcashd v5' },
  { member: 'hex', value: 'hex of the whole transaction', origin: 'zcashd v5' },
  { member: 'vin', value: 'array, as for v5', origin: 'zcashd v5' },
  { member: 'vout', value: 'array, as for v5', origin: 'zcashd v5' },
  { member: 'vjoinsplit', value: 'array, always empty', origin: 'zcashd v5' },
  { member: 'valueBalance', value: 'amount, Sapling value balance', origin: 'zcashd v5' },
  { member: 'valueBalanceZat', value: 'integer', origin: 'zcashd v5' },
  { member: 'vShieldedSpend', value: 'array, as for v5', origin: 'zcashd v5' },
  { member: 'vShieldedOutput', value: 'array, as for v5', origin: 'zcashd v5' },
  { member: 'bindingSig', value: 'hex, only with Sapling spends or outputs', origin: 'zcashd v5' },
  ...ORCHARD_SHAPED('orchard', "zcashd v5's `orchard`, with v6's flags"),
  ...ORCHARD_SHAPED('ironwood', "ZIP 229's Ironwood component, in `orchard`'s shape (Zebra's name)"),
];

/** Where Zebra's getrawtransaction and getblock 2 print v6 transactions otherwise (zebra-rpc's `TransactionObject`). */
export const V6_ZEBRA_DIFFERENCES: readonly string[] = [
  'Zebra omits `ironwood` when a v6 transaction has no Ironwood actions; zecrpc always prints it, as zcashd always prints `orchard` for v5 (empty `actions`, zero value balance), so a client reads `ironwood.actions` without testing for the member.',
  "Zebra prints `flags` as `enableOutputs`, `enableSpends` and has no `enableCrossAddress`; zecrpc keeps zcashd's order and adds ZIP 229's bit 2, which NU6.3 requires to be 0 in the Orchard component and which every Ironwood component in the real NU6.3 blocks sets.",
  'Zebra prints its own member order, amounts as f64 and `height`/`confirmations` inside each transaction, as for every version (`zecrpc compare` reports these as zebrad drift).',
  'Both name the new object `ironwood` and give it the members of `orchard`: the one name explorers reading Zebra already use.',
];
