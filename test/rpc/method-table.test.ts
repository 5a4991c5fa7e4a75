// docs/methods.md is what the registry generates (scripts/methods-table.ts), every served method
// sits in zcashd v6.12.2's category for it, and `help` lists them by category as zcashd does.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { methodStatuses, methodTableMarkdown, servedMethods } from '../../src/rpc/method-table.js';
import { MethodRegistry } from '../../src/rpc/registry.js';
import { ZCASHD_METHODS } from '../../src/rpc/zcashd-methods.js';

describe('the method table', () => {
  const served = servedMethods();

  it('docs/methods.md is the generated table (run `npx tsx scripts/methods-table.ts` after adding a method)', () => {
    const committed = readFileSync(new URL('../../docs/methods.md', import.meta.url), 'utf8');
    expect(committed).toBe(methodTableMarkdown(served));
  });

  it("every served method is one of zcashd's, in zcashd's category", () => {
    const zcashd = new Map(ZCASHD_METHODS.map((m) => [m.name, m]));
    for (const m of served) {
      expect(zcashd.get(m.name)?.category, m.name).toBe(m.category);
      expect(zcashd.get(m.name)?.wallet, m.name).toBe(false);
    }
    expect(ZCASHD_METHODS.length).toBe(new Set(ZCASHD_METHODS.map((m) => m.name)).size);
  });

  it('statuses: served methods by their surface, the rest by whether they need the wallet', () => {
    const status = new Map(methodStatuses(served).map((r) => [r.name, r.status]));
    expect(status.get('getblock')).toBe('exact');
    expect(status.get('getpeerinfo')).toBe('answered as a node without peers');
    expect(status.get('getblocktemplate')).toBe('forwarded to `-upstream`');
    expect(status.get('z_sendmany')).toBe('wallet: not provided');
    expect(status.get('setlogfilter')).toBe('exact');
  });

  it('help lists every served method by category, hidden ones left out', () => {
    const registry = new MethodRegistry(served);
    const listing = registry.help('');
    const sections = listing.split('\n\n').map((s) => s.split('\n'));
    const categories = sections.map((lines) => lines[0]);
    expect(categories).toEqual([
      '== Addressindex ==',
      '== Blockchain ==',
      '== Control ==',
      '== Generating ==',
      '== Mining ==',
      '== Network ==',
      '== Rawtransactions ==',
      '== Util ==',
      '== Wallet ==',
    ]);
    const listed = sections.flatMap((lines) => lines.slice(1).map((l) => l.split(' ')[0]));
    expect(listed.sort()).toEqual(
      served
        .filter((m) => m.category !== 'hidden')
        .map((m) => m.name)
        .sort(),
    );
    expect(listing).toContain(
      '== Mining ==\ngetblocksubsidy height\ngetblocktemplate ( "jsonrequestobject" )\ngetlocalsolps\ngetmininginfo\ngetnetworkhashps ( blocks height )\ngetnetworksolps ( blocks height )\nprioritisetransaction <txid> <priority delta> <fee delta>\nsubmitblock "hexdata" ( "jsonparametersobject" )',
    );
  });
});
