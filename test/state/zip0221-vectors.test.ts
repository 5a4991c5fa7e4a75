// ZIP-221 history trees against zcash-test-vectors' zip_0221_v1.json (Heartwood, V1 nodes) and
// zip_0221_v2.json (NU5, V2 nodes with Orchard data): the first rows of each, leaves appended one
// by one, the root hash after every append (so one, two and three peaks are bagged), and the
// serialized leaf. Source: https://github.com/zcash/zcash-test-vectors, test-vectors/json/
// (commits 9692538945 and 78321beacb; MIT / Apache-2.0). The rows are inline because
// ../shared/test-vectors does not carry these two files; their generator, zip_0221.py, draws
// random leaf values (times, bits and work do not belong to real blocks).
import { describe, expect, it } from 'vitest';
import { BRANCH_IDS } from '../../src/chain/network.js';
import { appendHistoryLeaf, emptyHistoryTree, historyRoot, serializeHistoryNode, type HistoryNode } from '../../src/state/history-tree.js';

/** block hash, time, bits, Sapling root, work (LE hex, trailing zeros cut), height, Sapling tx count, [Orchard root, Orchard tx count], root after appending. */
type Row = [string, number, number, string, string, number, number, [string, number] | null, string];

const V1: Row[] = [
  [
    '58ae02298ff606ff657cd7075409bb2a2b9db73d5235242448598a2421719f99',
    1437395079,
    508676804,
    '4f60202c937a03631e8ef6bb0ef44ed4abfa38fea80a38b84bd069bf0c8e3d46',
    '402103',
    903000,
    0,
    null,
    '44fca9155e0611daa1e05a2b8a89bfacc5073b9a5ccf4aec7bb0a13dd3de2b78',
  ],
  [
    'e95fbeec8d3dfdf4e50ec19647ba58390eaa57d25c6857fdd2f9f6f3591eff57',
    3447347931,
    509321498,
    '393eecdefade9c6f410dc74e529073c6903c36eccc8fb2b3e56cd6e05430ec09',
    '3acb02',
    903001,
    4,
    null,
    '849631139cccf4eb30dd58b809f9f9271e34675ae71ee92a734b03985a7efeaa',
  ],
  [
    'da1e114c06bbb2352f737d13a6b17b7d94d84fd0fc4daf8cfa79702b089c4758',
    870755273,
    527352672,
    '887ce3fbab469af1f46a8c25aef81f287ff215eaa372470a302f5b435e966329',
    '4f02',
    903002,
    1,
    null,
    '8a3fee775a70e972e31f6142791e8eca324db6874ca0e45791c16b1f92153c2c',
  ],
  [
    '22329ad18cc41428aef1cdbba1bf692a40ce56e181de3b33127550f9d8283229',
    1095315700,
    491671506,
    'd986fd0158e2f53f477c3cdac91700df3744738decf91b8d36af419c91a64a07',
    '1fdc4403',
    903003,
    6,
    null,
    '6dad280ec2288c2e9726f8ab82c884383f78b539157114bf786539d36cb2d310',
  ],
  [
    'eddc24b94a681a636dba49b0d67f69d6bee734a9d3d959275f0da7e67f51be98',
    3654169239,
    510630354,
    'ee86994b1bbb5d1327646f4f1ed102d5453c8b53f164729a3cc978066eb351a8',
    '3c4b02',
    903004,
    0,
    null,
    'ca3ff7d37c6114c5aa2bc35d09e9fe131f0b15e52cb99129890ca2a9fac8c25c',
  ],
  [
    'e0a334c50ca3eb78933ed625264617c34171c28acac122f7fb3c1de48078ed58',
    581751678,
    488015619,
    '501ffaeccaa3db684377434a9a2a2bf5853c47ebea500bcf00f998e5ae8dab86',
    '742b5d0b',
    903005,
    7,
    null,
    '7af256001e4cfffe790c430297e97bc50fc9239880d708078f174cd9385b4ece',
  ],
  [
    '36601d1625c58c15c5b76851730e2bdf43bf210edcf514fc2bb5d366985beed3',
    3328163140,
    528403144,
    'c1c6c9be6cd54f842b14aa9dd2d9502d7d048cf12eec413c6aba4672740eb40d',
    '0402',
    903006,
    2,
    null,
    'dd7615de0ad3803a00002afdf8743c97706f6fe4945449b0e483ada59fc13a0f',
  ],
  [
    '49110dde735676b3088c1d06822e2914db8d03dc9ea62e80426b9a296dd49285',
    2700292835,
    505299833,
    'b26651905ef683b5eca8b6ceca55f7c0e2de9c45160a8f47e7f5611fefc2c456',
    '827508',
    903007,
    3,
    null,
    'e7cad3bb47026e6c2f4d37df086cc2ab1ecfc77dfd590ea7d679a764eb497e89',
  ],
  [
    '9f03812957aae65d22b58c18e7c5fe5a8859d4d7b46c38138a094e682271bf43',
    1942273234,
    525768147,
    '1fcd09dcd16e06796fa772ff99b31c573ec4ef457d6fe14ee4a07a5ab3c59a1d',
    'f402',
    903008,
    5,
    null,
    'd99078a6870a64ce225f2d0f92d74ae4a1a7b07d6efde000ed98db45e3597e8c',
  ],
  [
    '1878f3f32d94141a9c15b731f852245749d527f6e6d619fde51ef15b983dc9b1',
    554306976,
    503668785,
    '4610ba767d949f204c4420cd203d799c98ea2bada8c6cbf7669a8a7ab21782ff',
    '0c9f2f',
    903009,
    1,
    null,
    '4a75abdec44f18a16a630107b87b83cffb0920a8aba29ca1c501bf177e218938',
  ],
];

const V2: Row[] = [
  [
    '1c65de3ee1f831585ceaacd19076c0a21afea13c2c2e46e04c04729f29fdda1b',
    2475487800,
    488857234,
    '32a05f2b30ef1913e24cdc96859185a6d437822c59c39b5db279b3bebd397e5c',
    '79e63c07',
    1687104,
    2,
    ['f25e7f47a8f863ea043e7adb82da62c11f4feb69026b00a5fd03fa4d7eccc551', 4],
    '432101614be7de002f6251566ae27f08f822b364b3ffa01d0b21cce228818143',
  ],
  [
    'c2071198ce7e2cdb60c74596add0c81756361dd955746ccd317e65a2663ec075',
    4264773653,
    524400782,
    '456113ddb5ecfdea7db0792f5e1ca264b49521d24f374de6f852efc8621052e1',
    'e503',
    1687105,
    2,
    ['6a83db3e7caba80e579bf3d07ef79f9a3388a00e32b825ec459322aa1d14880f', 3],
    'b49bd39955b78845ee8bb0b23a0088d35ab5ab095e773441184b8e4f40c61b88',
  ],
  [
    '2f22e3226c3174c31c47de6a57ac8e679dcc881427019b0fd72aeb3dc2d83e45',
    2438750730,
    510046671,
    '67cb77fa109c57a5efc0c4a240e6a1f23d821c3f9fd5cf7983cb2e6a7040c9fc',
    '2a7e02',
    1687106,
    6,
    ['201bf5eb425bcd8bb8c0d59fd712700a645902f6ad9e9c5bcf5674c8ed3b713b', 5],
    '4456186891116c90d482b98d64a7e98c775d322dc5399a0463c0b41e49978ea6',
  ],
  [
    '391408e5586c07af6e02075eefd5360e4922dea0eae5c9242c5b3fa407fe494d',
    1153743825,
    471481012,
    'a8766c0e1f3a803a7018f6d3887e9b4b809ebd315f7b343505467af48f71c774',
    '333794c209',
    1687107,
    3,
    ['b72c4d40edb80a059cb6b6f85ce6f198bdae63b3f106a92eaa1c01b4a91c4b0c', 3],
    '498cc7a47a2afb97e3ba1a7225185a3d7b2ba01037996bbcfe992adef9cb7a2a',
  ],
  [
    'a5e0e023d71897e9add51209781c2ff588db63ecaf2656b8c4d7f11a31496ebc',
    1689693439,
    524708597,
    '369af4fe24769c8d97a332c8f4ae1ac089ac8e47351f7a5ac7e91d09e5e8aff7',
    'a203',
    1687108,
    1,
    ['ababca771358036a4be052c05a0e324af4dbd571cb831ab104b692db5d044b45', 6],
    '766679c71fbdd4ec231edb5c30d7b436c5b9ba2327052edd0f68a5e23b0f6888',
  ],
  [
    '2bc4c5968b108b98f547c9e19c85869b0a60ce364362746a1f2f85ca6703ee6f',
    3626294295,
    493342338,
    '6473ba6fbd5b0f5f79d428911c736ba26e5901d14620a2969d5e95d2070dd0dd',
    'd3537702',
    1687109,
    3,
    ['1983560eccb8657356085de303855e0a585cc2a4f9037584d83df4795c4d5463', 1],
    '99a1a3a06db4ab44730c857799cca7f1c12fe8bead43ec9b364c26bb771f11b7',
  ],
  [
    'ba2a3d5091ee662e805f5ea602352dddf741e3828b0dc3fc9e46808bc2a20c09',
    1935828484,
    503893709,
    '6a77ffbb635eea1454721cb53aa2ae773f0d42d723117b3cad06ccee320f0310',
    'aa101d',
    1687110,
    6,
    ['8f83dd121ea0224c0217635f0281954cd549ddb49df2219d7c91e156ddbd58a6', 0],
    '46295a48c3c3e4f807330729a4f76e9e3dc531b757413a7fa95e2f711a16b058',
  ],
];

const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** The vectors give each leaf's work directly (not derived from its bits), so the node is built field by field. */
function leafOf([hash, time, bits, saplingRoot, workLe, height, saplingTxCount, orchard]: Row): HistoryNode {
  return {
    commitment: bytes(hash),
    startTime: time,
    endTime: time,
    startTarget: bits,
    endTarget: bits,
    startSaplingRoot: bytes(saplingRoot),
    endSaplingRoot: bytes(saplingRoot),
    work: BigInt('0x' + Buffer.from(workLe, 'hex').reverse().toString('hex')),
    startHeight: height,
    endHeight: height,
    saplingTxCount,
    orchard: orchard ? { startRoot: bytes(orchard[0]), endRoot: bytes(orchard[0]), txCount: orchard[1] } : null,
  };
}

function rootsAfterEachAppend(rows: Row[], branchId: number): string[] {
  let tree = emptyHistoryTree(branchId);
  return rows.map((row) => {
    tree = appendHistoryLeaf(tree, leafOf(row));
    return hex(historyRoot(tree));
  });
}

describe('zcash-test-vectors zip_0221', () => {
  it('V1 (Heartwood): the root after each of 10 appends', () => {
    expect(rootsAfterEachAppend(V1, BRANCH_IDS.Heartwood)).toEqual(V1.map((r) => r[8]));
  });

  it('V2 (NU5): the root after each of 7 appends', () => {
    expect(rootsAfterEachAppend(V2, BRANCH_IDS.NU5)).toEqual(V2.map((r) => r[8]));
  });

  it('serializes a leaf as the vectors do (V1 and V2)', () => {
    expect(hex(serializeHistoryNode(leafOf(V1[0]!)))).toBe(
      '58ae02298ff606ff657cd7075409bb2a2b9db73d5235242448598a2421719f99' +
        '87e8ac5587e8ac55c4ca511ec4ca511e' +
        '4f60202c937a03631e8ef6bb0ef44ed4abfa38fea80a38b84bd069bf0c8e3d46'.repeat(2) +
        '4021030000000000000000000000000000000000000000000000000000000000' +
        'fe58c70d00fe58c70d0000',
    );
    expect(hex(serializeHistoryNode(leafOf(V2[0]!)))).toBe(
      '1c65de3ee1f831585ceaacd19076c0a21afea13c2c2e46e04c04729f29fdda1b' +
        '38f28c9338f28c93925e231d925e231d' +
        '32a05f2b30ef1913e24cdc96859185a6d437822c59c39b5db279b3bebd397e5c'.repeat(2) +
        '79e63c0700000000000000000000000000000000000000000000000000000000' +
        'fe40be1900fe40be190002' +
        'f25e7f47a8f863ea043e7adb82da62c11f4feb69026b00a5fd03fa4d7eccc551'.repeat(2) +
        '04',
    );
  });
});
