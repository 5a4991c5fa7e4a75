/**
 * The package's public API as text: for every entry point in package.json's `exports`, each
 * exported name and its declared signature (functions' overloads, classes' public members,
 * interfaces' members, type aliases, constants' types), sorted so that only a change of the API
 * changes the text. `api/zecrpc.api.md` holds the approved report; a test compares the two, so a
 * change to the API is made on purpose, with `npm run api:update`.
 *
 *   npx tsx scripts/api-report.ts            prints the report
 *   npx tsx scripts/api-report.ts --update   writes api/zecrpc.api.md
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const API_REPORT_PATH = 'api/zecrpc.api.md';

const TYPE_FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/** Entry-point subpath → its source file, from package.json's `exports` (`dist/src/x.d.ts` ← `src/x.ts`). */
export function entryPoints(root: string): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  const out = new Map<string, string>();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const types = typeof target === 'object' && target !== null ? (target as { types?: unknown }).types : undefined;
    if (typeof types !== 'string') continue;
    const m = /^\.\/dist\/(.+)\.d\.ts$/.exec(types);
    if (!m) throw new Error(`package.json exports["${subpath}"].types is not a dist/*.d.ts path: ${types}`);
    out.set(subpath, join(root, `${m[1]}.ts`));
  }
  return out;
}

/** Members Node's or TypeScript's own declarations give (an Error's `stack`): not this package's API. */
function isOwn(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((d) => !/[\\/]node_modules[\\/]/.test(d.getSourceFile().fileName));
}

function isPublic(decl: ts.Declaration): boolean {
  const flags = ts.getCombinedModifierFlags(decl);
  if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return false;
  const name = ts.getNameOfDeclaration(decl);
  return !(name && ts.isPrivateIdentifier(name));
}

function signatures(checker: ts.TypeChecker, type: ts.Type, kind: ts.SignatureKind): string[] {
  return checker.getSignaturesOfType(type, kind).map((s) => checker.signatureToString(s, undefined, TYPE_FLAGS));
}

/** The members of a class instance, interface or object type, one line each. */
function members(checker: ts.TypeChecker, type: ts.Type, at: ts.Node): string[] {
  const lines: string[] = [];
  for (const p of checker.getPropertiesOfType(type)) {
    const decl = p.valueDeclaration ?? p.declarations?.[0];
    if ((decl && !isPublic(decl)) || !isOwn(p)) continue;
    const optional = p.flags & ts.SymbolFlags.Optional ? '?' : '';
    const readonly = decl && ts.getCombinedModifierFlags(decl) & ts.ModifierFlags.Readonly ? 'readonly ' : '';
    const t = checker.getTypeOfSymbolAtLocation(p, at);
    if (p.flags & ts.SymbolFlags.Method) {
      // An optional method's type is the function or undefined: its signatures are the function's.
      for (const s of signatures(checker, checker.getNonNullableType(t), ts.SignatureKind.Call)) lines.push(`${p.name}${optional}${s}`);
    } else {
      lines.push(`${readonly}${p.name}${optional}: ${checker.typeToString(t, at, TYPE_FLAGS)}`);
    }
  }
  for (const s of signatures(checker, type, ts.SignatureKind.Call)) lines.push(s);
  for (const s of signatures(checker, type, ts.SignatureKind.Construct)) lines.push(`new ${s}`);
  const index = checker.getIndexInfosOfType(type);
  for (const i of index) lines.push(`[key: ${checker.typeToString(i.keyType)}]: ${checker.typeToString(i.type, at, TYPE_FLAGS)}`);
  return lines.sort();
}

/** What one exported name declares, as lines (a heading line, then indented members). */
function describe(checker: ts.TypeChecker, name: string, exported: ts.Symbol): string[] {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const decl = symbol.declarations?.[0];
  if (!decl) return [`${name}: (no declaration)`];
  const out: string[] = [];
  const f = symbol.flags;
  if (f & ts.SymbolFlags.Class) {
    const classType = checker.getTypeOfSymbolAtLocation(symbol, decl);
    const instance = checker.getDeclaredTypeOfSymbol(symbol);
    const bases = instance.isClassOrInterface() ? checker.getBaseTypes(instance).map((b) => checker.typeToString(b, decl, TYPE_FLAGS)) : [];
    out.push(`class ${name}${bases.length ? ` extends ${bases.join(', ')}` : ''}`);
    for (const s of signatures(checker, classType, ts.SignatureKind.Construct)) out.push(`  constructor${s.replace(/: [^:]+$/, '')}`);
    const statics = checker
      .getPropertiesOfType(classType)
      .filter((p) => p.name !== 'prototype' && isOwn(p) && (!p.valueDeclaration || isPublic(p.valueDeclaration)));
    for (const p of statics)
      out.push(`  static ${p.name}: ${checker.typeToString(checker.getTypeOfSymbolAtLocation(p, decl), decl, TYPE_FLAGS)}`);
    for (const m of members(checker, instance, decl)) out.push(`  ${m}`);
  } else if (f & ts.SymbolFlags.Function) {
    const t = checker.getTypeOfSymbolAtLocation(symbol, decl);
    for (const s of signatures(checker, t, ts.SignatureKind.Call)) out.push(`function ${name}${s}`);
  } else if (f & ts.SymbolFlags.Enum) {
    out.push(`enum ${name}`);
    for (const m of checker.getExportsOfModule(symbol)) {
      const v = m.valueDeclaration && ts.isEnumMember(m.valueDeclaration) ? checker.getConstantValue(m.valueDeclaration) : undefined;
      out.push(`  ${m.name} = ${JSON.stringify(v)}`);
    }
  } else if (f & ts.SymbolFlags.Variable) {
    const t = checker.getTypeOfSymbolAtLocation(symbol, decl);
    out.push(`const ${name}: ${checker.typeToString(t, decl, TYPE_FLAGS)}`);
  }
  if (f & ts.SymbolFlags.Interface) {
    const t = checker.getDeclaredTypeOfSymbol(symbol);
    const params = t.isClassOrInterface() && t.typeParameters ? `<${t.typeParameters.map((p) => checker.typeToString(p)).join(', ')}>` : '';
    const bases = t.isClassOrInterface() ? checker.getBaseTypes(t).map((b) => checker.typeToString(b, decl, TYPE_FLAGS)) : [];
    out.push(`interface ${name}${params}${bases.length ? ` extends ${bases.join(', ')}` : ''}`);
    for (const m of members(checker, t, decl)) out.push(`  ${m}`);
  } else if (f & ts.SymbolFlags.TypeAlias && ts.isTypeAliasDeclaration(decl)) {
    const params = decl.typeParameters ? `<${decl.typeParameters.map((p) => p.getText()).join(', ')}>` : '';
    const t = checker.getTypeAtLocation(decl.type);
    out.push(`type ${name}${params} = ${checker.typeToString(t, decl, TYPE_FLAGS | ts.TypeFormatFlags.InTypeAlias)}`);
  }
  return out.length > 0 ? out : [`${name}: ${ts.SymbolFlags[f] ?? f}`];
}

/** The API report of the package rooted at `root`, as committed in api/zecrpc.api.md. */
export function buildApiReport(root: string): string {
  const entries = entryPoints(root);
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.build.json'),
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.build.json could not be read');
  const program = ts.createProgram({ rootNames: [...entries.values()], options: config.options });
  const checker = program.getTypeChecker();
  const lines = [
    '# zecrpc public API',
    '',
    '<!-- generated by `npm run api:update` (scripts/api-report.ts) from the entry points of package.json;',
    '     test/api/public-api.test.ts fails when the API differs from this file. -->',
  ];
  for (const [subpath, file] of [...entries].sort(([a], [b]) => a.localeCompare(b))) {
    const source = program.getSourceFile(file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`entry point ${subpath}: ${file} is not a module`);
    const name = subpath === '.' ? 'zecrpc' : `zecrpc/${subpath.slice(2)}`;
    lines.push('', `## ${name}`, '', '```ts');
    const exported = checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of exported) lines.push(...describe(checker, e.name, e));
    lines.push('```');
  }
  // The checker names types it cannot name otherwise by absolute import paths: made relative to
  // the package, the report is the same in every checkout.
  return lines.join('\n').split(`import("${root}/`).join('import("./') + '\n';
}

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = buildApiReport(root);
  if (process.argv.includes('--update')) {
    writeFileSync(join(root, API_REPORT_PATH), report);
    process.stderr.write(`wrote ${API_REPORT_PATH}\n`);
  } else {
    process.stdout.write(report);
  }
}
