import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compatibilityDoc } from '../../src/compat/compatibility-doc.js';
import { COMPATIBILITY_REGISTRY } from '../../src/compat/deviations.js';
import { COMPAT_PROFILES } from '../../src/compat/profiles.js';

const root = new URL('../../', import.meta.url);

describe('the compatibility registry and docs/compatibility.md', () => {
  it('the committed document is the one `npm run docs:compat` generates', () => {
    expect(readFileSync(new URL('docs/compatibility.md', root), 'utf8')).toBe(compatibilityDoc());
  });

  it('has one entry per name, each under known profiles, with its reason and version', () => {
    const names = COMPATIBILITY_REGISTRY.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    const profiles = new Set(COMPAT_PROFILES.map((p) => p.name));
    for (const e of COMPATIBILITY_REGISTRY) {
      expect(e.profiles.length, e.name).toBeGreaterThan(0);
      for (const p of e.profiles) expect(profiles.has(p), `${e.name}: ${p}`).toBe(true);
      expect(e.why.length, e.name).toBeGreaterThan(10);
      expect(e.since, e.name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(e.subjects.length, e.name).toBeGreaterThan(0);
    }
  });

  it('classifies the numeric getblock height and the v6 transaction form as the deviations compare can see', () => {
    const seen = COMPATIBILITY_REGISTRY.filter((e) => e.matches);
    expect(seen.map((e) => e.name)).toEqual(['getblock-numeric-height', 'v6-transaction-json']);
    expect(seen[0]!.matches!('getblock', [12800])).toBe(true);
    expect(seen[0]!.matches!('getblock', ['12800'])).toBe(false);
    expect(seen[0]!.matches!('getblockheader', [12800])).toBe(false);
  });

  it('README links to the document instead of listing the notes itself', () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    expect(readme).toContain('[docs/compatibility.md](docs/compatibility.md)');
    expect(readme).not.toContain('Deliberate deviations');
    const doc = compatibilityDoc();
    for (const e of COMPATIBILITY_REGISTRY) expect(doc).toContain(`### ${e.name}\n`);
  });
});
