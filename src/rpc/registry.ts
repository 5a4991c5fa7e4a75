/**
 * The method table (zcashd's CRPCTable): lookup by exact name, and the text of `help`.
 * Registering a method is adding its module's RpcMethod to the list the server is given.
 */
import type { RpcMethod } from './method.js';

export class MethodRegistry {
  private readonly methods = new Map<string, RpcMethod>();

  constructor(methods: readonly RpcMethod[]) {
    for (const m of methods) {
      if (this.methods.has(m.name)) throw new Error(`RPC method registered twice: ${m.name}`);
      this.methods.set(m.name, m);
    }
  }

  get(name: string): RpcMethod | undefined {
    return this.methods.get(name);
  }

  /** Every registered name, hidden methods included. */
  names(): string[] {
    return [...this.methods.keys()];
  }

  /**
   * zcashd's CRPCTable::help: with a command, that command's full help text (hidden ones too);
   * without, the first line of each command sorted by category+name, grouped under
   * `== Category ==` headers, hidden commands and names containing "label" skipped.
   */
  help(command: string): string {
    const sorted = [...this.methods.values()].sort((a, b) => {
      const ka = a.category + a.name;
      const kb = b.category + b.name;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
    let out = '';
    let category = '';
    for (const m of sorted) {
      if (m.name.includes('label')) continue;
      if ((command !== '' || m.category === 'hidden') && m.name !== command) continue;
      let text = m.help;
      if (command === '') {
        const nl = text.indexOf('\n');
        if (nl >= 0) text = text.slice(0, nl);
        if (category !== m.category) {
          if (category !== '') out += '\n';
          category = m.category;
          out += `== ${category.charAt(0).toUpperCase()}${category.slice(1)} ==\n`;
        }
      }
      out += text + '\n';
    }
    if (out === '') out = `help: unknown command: ${command}\n`;
    return out.slice(0, -1);
  }
}
