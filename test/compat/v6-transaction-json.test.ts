// The v6 format table (compat/v6-transaction-json.ts), from which docs/compatibility.md's "v6
// transactions" section is generated, is what render/tx.ts prints: on real v6 transactions
// (../shared/test-vectors/nu6.3), with and without each component, the members appear in the
// table's order and none is missing from it.
import { describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { compatibilityDoc } from '../../src/compat/compatibility-doc.js';
import { COMPATIBILITY_REGISTRY } from '../../src/compat/deviations.js';
import { V6_TRANSACTION_MEMBERS } from '../../src/compat/v6-transaction-json.js';
import { txToJson } from '../../src/render/tx.js';
import { readHexVector } from '../support/vectors.js';

const tx = (height: number, index: number) =>
  decodeBlock(readHexVector('nu6.3', 'blocks', 'mainnet', `${height}.hex`), CURRENT_CHAIN_ACCEPTANCE).transactions[index]!;

/** Member paths in order of first appearance, array elements as `[]`; of vin, vout and the Sapling arrays only the array itself. */
function memberPaths(json: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (path !== '' && !out.includes(path)) out.push(path);
    if (/^(vin|vout|vjoinsplit|vShieldedSpend|vShieldedOutput)/.test(path)) return;
    if (Array.isArray(v)) for (const x of v) walk(x, `${path}[]`);
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, path === '' ? k : `${path}.${k}`);
  };
  walk(json, '');
  // An element (`orchard.actions[]`) is listed in the table through its members.
  return out.filter((p) => !p.endsWith('[]'));
}

const table = V6_TRANSACTION_MEMBERS.map((m) => m.member);

describe('the v6 transaction table', () => {
  it.each([
    ['Orchard and Ironwood', 3428144, 2],
    ['Orchard only', 3428145, 2],
    ['Ironwood only', 3428146, 1],
    ['the coinbase, neither', 3428143, 0],
  ] as const)('lists, in order, every member of a v6 transaction with %s (mainnet %i #%i)', (_, height, index) => {
    const printed = memberPaths(JSON.parse(txToJson(tx(height, index), MAINNET)));
    for (const p of printed) expect(table, p).toContain(p);
    expect(printed).toEqual(table.filter((m) => printed.includes(m)));
  });

  it('leaves out only what the table says is conditional', () => {
    const printed = memberPaths(JSON.parse(txToJson(tx(3428143, 0), MAINNET)));
    // An empty array has no elements, and an absent object no members: only the outermost absent member must say why.
    const parent = (m: string) => m.slice(0, Math.max(0, m.lastIndexOf('.')));
    const absent = V6_TRANSACTION_MEMBERS.filter(
      (m) => !printed.includes(m.member) && (parent(m.member) === '' || printed.includes(parent(m.member))),
    );
    expect(absent.map((m) => m.member)).toEqual([
      'bindingSig',
      'orchard.flags',
      'orchard.anchor',
      'orchard.proof',
      'orchard.bindingSig',
      'ironwood.flags',
      'ironwood.anchor',
      'ironwood.proof',
      'ironwood.bindingSig',
    ]);
    for (const m of absent) expect(m.value, m.member).toMatch(/only with/);
  });

  it('is in the generated document, with the v6 deviation that points to it', () => {
    const doc = compatibilityDoc();
    expect(doc).toContain('## v6 transactions');
    for (const m of table) expect(doc).toContain(`| \`${m}\` |`);
    const entry = COMPATIBILITY_REGISTRY.find((e) => e.name === 'v6-transaction-json')!;
    expect(entry.profiles).toEqual(['current']);
    const hexOf = (height: number, index: number) => Buffer.from(tx(height, index).bytes).toString('hex');
    expect(entry.matches!('decoderawtransaction', [hexOf(3428144, 2)])).toBe(true);
    // A v5 transaction with the NU6.2 branch id, and one with NU5's (mainnet 1687107 #4).
    const nu62 = Buffer.from(
      decodeBlock(readHexVector('nu6.3', 'blocks', 'mainnet', '3428142.hex'), CURRENT_CHAIN_ACCEPTANCE).transactions[1]!.bytes,
    );
    expect(entry.matches!('decoderawtransaction', [nu62.toString('hex')])).toBe(true);
    const nu5 = Buffer.from(decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex')).transactions[4]!.bytes);
    expect(entry.matches!('decoderawtransaction', [nu5.toString('hex')])).toBe(false);
    expect(entry.matches!('getrawtransaction', [hexOf(3428144, 2)])).toBe(false);
  });
});
