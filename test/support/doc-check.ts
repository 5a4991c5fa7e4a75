// Checks what the documentation shows against the code: every `zecrpc …` / `zecrpc-cli …` command
// line in a code block goes through the real option parsers, and every relative link and every
// repository path quoted in backticks names something that exists.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command, Option } from 'commander';
import { parseZcashArgs } from '../../src/config.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { compareCommand, normalizeCompareArgs } from '../../src/cli/compare.js';
import { decodeCommands } from '../../src/cli/decode.js';
import { importCommand, splitImportArgv } from '../../src/cli/import.js';
import { checkOptions, type CommandName } from '../../src/cli/options.js';
import { convertParams } from '../../src/cli/rpc-params.js';
import { normalizeServeArgs } from '../../src/cli/serve.js';

/** A synopsis's `<hex | @file | ->`, `<method>`: a positional argument whose value is not shown. */
const PLACEHOLDER = '\u0000placeholder';

export interface DocProblem {
  file: string;
  what: string;
  problem: string;
}

/** The lines of every fenced code block, with synopsis continuation lines (indented) joined on. */
export function codeBlockCommands(markdown: string): string[] {
  const commands: string[] = [];
  let inBlock = false;
  for (const raw of markdown.split('\n')) {
    if (/^\s*```/.test(raw)) {
      inBlock = !inBlock;
      continue;
    }
    if (!inBlock) continue;
    const last = commands.length - 1;
    if (last >= 0 && commands[last]!.endsWith('\\')) commands[last] = commands[last]!.slice(0, -1) + ' ' + raw.trim();
    else if (last >= 0 && /^\s+[[-]/.test(raw) && isCommand(commands[last]!)) commands[last] += ' ' + raw.trim();
    else commands.push(raw);
  }
  return commands
    .flatMap((line) => line.split('&&'))
    .map((line) => line.trim())
    .filter(isCommand);
}

/** The words of a command line from its program name on, or null when it runs something else. */
function commandWords(line: string): string[] | null {
  if (line.startsWith('#')) return null;
  const text = line
    .replace(/^\$\s+/, '')
    .replace(/\s+#\s.*$/, '')
    .replace(/<[^>]*>/g, PLACEHOLDER);
  const words = text
    .split(/\s+/)
    .map((w) => w.replace(/^["']|["']$/g, ''))
    .filter((w) => w !== '');
  let i = 0;
  if (words[i] === 'npx') i++;
  if (words[i] === 'node') i++;
  const program = words[i]?.replace(/^ExecStart=/, '');
  if (program === undefined) return null;
  if (/(^|\/)zecrpc(-cli)?$/.test(program) || /(^|\/)bin\/zecrpc(-cli)?\.js$/.test(program)) {
    return [program.endsWith('-cli') || program.endsWith('-cli.js') ? 'zecrpc-cli' : 'zecrpc', ...words.slice(i + 1)];
  }
  return null;
}

function isCommand(line: string): boolean {
  return commandWords(line) !== null;
}

/** Synopsis notation turned into plain arguments: `[-a|-b]` gives `-a -b`, `FILE…` a placeholder. */
function synopsisArgs(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const word of words) {
    const w = word.replace(/[[\]]/g, '').replace(/…$/, '');
    if (w === '' || w === '|') continue;
    const parts = w.split('|');
    if (parts.length > 1 && parts.every((p) => p.startsWith('-'))) out.push(...parts);
    else if (/^[A-Z][A-Z|…]*$/.test(w) || w === 'params') out.push(PLACEHOLDER);
    else out.push(w);
  }
  return out;
}

/** zcashd-style options (`-name=value`) of a command, through the parser and the check the command uses. */
function checkZcashStyle(args: readonly string[], command: CommandName): void {
  const { options, rest } = parseZcashArgs(args);
  const positional = rest.filter((r) => r !== PLACEHOLDER);
  if (positional.length > 0) throw new Error(`${command} takes no argument '${positional[0]}'`);
  checkOptions(options, command);
}

function findOption(cmd: Command, flag: string): Option | undefined {
  return cmd.options.find((o) => o.long === flag || o.short === flag);
}

/** `--long` options and arguments of a commander command: names, choices and argument counts. */
function checkCommanderArgs(cmd: Command, args: readonly string[]): void {
  let positional = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('-') || arg === '-') {
      positional++;
      continue;
    }
    const [flag, inline] = arg.split(/=(.*)/s) as [string, string | undefined];
    const option = findOption(cmd, flag);
    if (!option) throw new Error(`${cmd.name()} has no option ${flag}`);
    if (!option.required && !option.optional) continue;
    const values: string[] = [];
    if (inline !== undefined) values.push(inline);
    else {
      while (i + 1 < args.length && !args[i + 1]!.startsWith('-')) {
        values.push(args[++i]!);
        if (!option.variadic) break;
      }
      if (values.length === 0 && option.required) throw new Error(`${cmd.name()} ${flag} needs a value`);
    }
    for (const value of values.flatMap((v) => v.split('|'))) {
      if (value !== PLACEHOLDER && option.argChoices && !option.argChoices.includes(value)) {
        throw new Error(`${cmd.name()} ${flag} takes ${option.argChoices.join(', ')}, not '${value}'`);
      }
    }
  }
  const declared = cmd.registeredArguments;
  const required = declared.filter((a) => a.required).length;
  if (positional < required || positional > declared.length) {
    throw new Error(`${cmd.name()} takes ${declared.length} argument(s), the line gives ${positional}`);
  }
}

function checkClient(args: readonly string[]): void {
  const firstWord = args.findIndex((a) => !a.startsWith('-'));
  const options = firstWord < 0 ? args : args.slice(0, firstWord);
  checkZcashStyle(options, 'cli');
  if (firstWord < 0) throw new Error('zecrpc-cli: no method');
  const [method, ...params] = args.slice(firstWord);
  if (method === PLACEHOLDER) return;
  const converted = convertParams(method!, params);
  if ('failure' in converted) throw new Error(`zecrpc-cli ${method}: ${converted.failure.message}`);
}

/** Throws with the reason when the command line would not parse. */
export function checkCommandLine(line: string): void {
  const words = commandWords(line);
  if (!words) throw new Error('not a zecrpc command');
  const [program, ...rest] = words;
  const args = synopsisArgs(rest);
  if (program === 'zecrpc-cli') return checkClient(args);
  const [sub, ...subArgs] = args;
  if (sub === undefined || !(COMMANDS as readonly string[]).includes(sub)) throw new Error(`zecrpc has no command '${sub ?? ''}'`);
  switch (sub) {
    case 'serve':
      return checkZcashStyle(normalizeServeArgs(subArgs), 'serve');
    case 'verify':
      return checkZcashStyle(subArgs, 'verify');
    case 'cli':
      return checkClient(subArgs);
    case 'import': {
      const { node, own } = splitImportArgv(subArgs);
      checkZcashStyle(node, 'import');
      return checkCommanderArgs(importCommand(), own);
    }
    case 'compare':
      return checkCommanderArgs(compareCommand(), normalizeCompareArgs(subArgs));
    case 'help':
      if (subArgs.length !== 1 || (subArgs[0] !== PLACEHOLDER && !(COMMANDS as readonly string[]).includes(subArgs[0]!))) {
        throw new Error(`zecrpc help takes one command name`);
      }
      return;
    default: {
      const cmd = decodeCommands().find((c) => c.name() === sub)!;
      return checkCommanderArgs(cmd, subArgs);
    }
  }
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as dashes. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let inBlock = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) inBlock = !inBlock;
    const m = !inBlock && /^#{1,6}\s+(.*)$/.exec(line);
    if (m) {
      anchors.add(
        m[1]!
          .trim()
          .toLowerCase()
          .replace(/[^\p{L}\p{N} _-]/gu, '')
          .replace(/ /g, '-'),
      );
    }
  }
  return anchors;
}

/** Repository paths as the docs quote them in backticks (relative to the repository root). */
const REPO_PATH = /^(src|test|bench|docs|bin|scripts|assembly|test-vectors|\.ci)\/[^\s<>…*?{}$]*$|^[A-Z][A-Z_]*\.md$|^package\.json$/;

/** Every problem in one markdown file: commands that do not parse, links and paths that do not exist. */
export function checkMarkdown(file: string, markdown: string, repoRoot: string): DocProblem[] {
  const problems: DocProblem[] = [];
  for (const line of codeBlockCommands(markdown)) {
    try {
      checkCommandLine(line);
    } catch (e) {
      problems.push({ file, what: line, problem: (e as Error).message });
    }
  }
  const dir = dirname(resolve(repoRoot, file));
  const prose = markdown.replace(/```[\s\S]*?```/g, '');
  for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
    const [path, anchor] = target.split('#') as [string, string | undefined];
    const full = resolve(dir, path);
    if (path !== '' && !existsSync(full)) {
      problems.push({ file, what: target, problem: 'linked file does not exist' });
      continue;
    }
    const page = path === '' ? markdown : full.endsWith('.md') ? readFileSync(full, 'utf8') : null;
    if (anchor !== undefined && page !== null && !headingAnchors(page).has(anchor)) {
      problems.push({ file, what: target, problem: `no heading #${anchor}` });
    }
  }
  for (const m of prose.matchAll(/`([^`\s]+)`/g)) {
    const path = m[1]!;
    if (REPO_PATH.test(path) && !existsSync(join(repoRoot, path))) problems.push({ file, what: path, problem: 'path does not exist' });
  }
  return problems;
}
