/** zcashd's two example lines that end most help texts (src/rpc/server.cpp). */

export function helpExampleCli(method: string, args: string): string {
  return `> zcash-cli ${method} ${args}\n`;
}

export function helpExampleRpc(method: string, args: string): string {
  return (
    `> curl --user myusername --data-binary '{"jsonrpc": "1.0", "id":"curltest", ` +
    `"method": "${method}", "params": [${args}] }' -H 'content-type: text/plain;' http://127.0.0.1:8232/\n`
  );
}

/** Help body lines, each ending in "\n" (zcashd builds them from "...\n" literals). */
export function helpLines(...text: string[]): string {
  return text.join('\n') + '\n';
}
