/**
 * docs/compatibility.md, generated from the profiles and the registry (`npm run docs:compat`
 * writes it; test/compat/compatibility-doc.test.ts holds the committed file to this output).
 */
import { COMPATIBILITY_REGISTRY, type RegistryEntry } from './deviations.js';
import { COMPAT_PROFILES, DEFAULT_COMPAT_PROFILE, type CompatProfile } from './profiles.js';
import { V6_TRANSACTION_MEMBERS, V6_ZEBRA_DIFFERENCES } from './v6-transaction-json.js';

const hex8 = (id: number): string => id.toString(16).padStart(8, '0');

function profileRow(p: CompatProfile): string {
  const isDefault = p === DEFAULT_COMPAT_PROFILE ? ' (default)' : '';
  return `| \`${p.name}\`${isDefault} | zcashd ${p.zcashd} | ${p.upgrades.join(', ')} | ${p.acceptance.acceptedBranchIds.map(hex8).join(', ')} |`;
}

function entrySection(e: RegistryEntry): string {
  const where = e.subjects.map((s) => `\`${s}\``).join(', ') + (e.member === null ? '' : ` — \`${e.member}\``);
  const compare = e.matches ? `yes (\`--exclude ${e.name}\` accepts it)` : 'no';
  return [
    `### ${e.name}`,
    '',
    `- **Concerns:** ${where}`,
    `- **Profiles:** ${e.profiles.join(', ')} · **since** zecrpc ${e.since} · **classified by \`zecrpc compare\`:** ${compare}`,
    '',
    ...e.text,
    '',
    `*Why:* ${e.why}`,
    '',
  ].join('\n');
}

/** The v6 transaction format (`-compat=current`), member by member. */
function v6TransactionsSection(): string[] {
  return [
    '## v6 transactions',
    '',
    'No zcashd release prints a v6 transaction (ZIP 229). Under `-compat=current`,',
    '`decoderawtransaction`, `getrawtransaction` (verbose) and `getblock` (verbosity 2) print one',
    "as zcashd's TxToJSON prints v5, extended by the Ironwood component; v5 and older transactions",
    'print as before. Members, in order:',
    '',
    '| member | value | origin |',
    '|---|---|---|',
    ...V6_TRANSACTION_MEMBERS.map((m) => `| \`${m.member}\` | ${m.value} | ${m.origin} |`),
    '',
    'Where Zebra (zebra-rpc, the maintained server on this chain) prints them otherwise:',
    '',
    ...V6_ZEBRA_DIFFERENCES.map((d) => `- ${d}`),
    '',
  ];
}

export function compatibilityDoc(): string {
  const deviations = COMPATIBILITY_REGISTRY.filter((e) => e.kind === 'deviation');
  const notes = COMPATIBILITY_REGISTRY.filter((e) => e.kind === 'note');
  return [
    '# Compatibility with zcashd',
    '',
    '<!-- Generated from src/compat/profiles.ts and src/compat/deviations.ts by `npm run docs:compat`; do not edit. -->',
    '',
    "zecrpc reproduces one zcashd release's replies, chosen by `-compat=<profile>`. A profile states",
    'what that release knows: the upgrades it lists and the consensus branch ids its transaction',
    'parser accepts in a v5 header.',
    '',
    '| profile | reproduces | upgrades | accepted branch ids |',
    '|---|---|---|---|',
    ...COMPAT_PROFILES.map(profileRow),
    '',
    '## Deviations',
    '',
    'Where zecrpc answers differently from zcashd, on purpose.',
    '',
    ...deviations.map(entrySection),
    '## Notes',
    '',
    'Where zecrpc matches zcashd in a way worth stating.',
    '',
    ...notes.map(entrySection),
    ...v6TransactionsSection(),
  ]
    .join('\n')
    .replace(/\n+$/, '\n');
}
