/**
 * Holds deploy/nftables-replicas.nft's rules for a bench's kernel tier (kernel-tier.ts): loads
 * them with the given backends on a free port of 127.0.0.1, checks every replica answers through
 * them, prints `PORT <n>`, and deletes them on SIGTERM (which exit-with-parent.ts sends when the
 * bench dies), SIGINT and SIGHUP (a terminal's Ctrl-C or hang-up reaches the whole process
 * group): rules outliving the bench would keep rewriting connections to that port. The port stays
 * bound by a socket of this process while the rules live, so no other program can take it: the
 * rules rewrite each connection before it would reach that socket.
 *
 *   BACKENDS="<port> <port> …"   the replicas, in the order of the file's REPLICAn_PORT defines
 */
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { findNft, nftablesRules, tableName } from './kernel-tier.js';
import { backendPortsFromEnv } from './backend-ports.js';

const nft = findNft();
if (nft === null) throw new Error('nft is not installed (Debian package nftables): the kernel tier needs it');
const backends = backendPortsFromEnv();

const holder = createServer((socket) => socket.destroy());
await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
const port = (holder.address() as AddressInfo).port;
const table = tableName(port);
// Loading needs CAP_NET_ADMIN; nft says so itself when it is missing.
execFileSync(nft, ['-f', '-'], { input: nftablesRules(port, backends, table), stdio: ['pipe', 'inherit', 'inherit'] });
let removed = false;
const remove = (): void => {
  if (removed) return;
  removed = true;
  try {
    execFileSync(nft, ['delete', 'table', 'ip', table], { stdio: 'ignore' });
  } catch {
    // already gone
  }
};
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
  process.once(signal, () => {
    remove();
    process.exit(0);
  });
process.once('exit', remove);

/** One connection through the rules: any HTTP answer proves a replica listens behind it. */
function answers(): Promise<boolean> {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port, method: 'GET', path: '/', agent: false }, (res) => {
      res.resume();
      done(true);
    });
    req.on('error', () => done(false));
    req.end();
  });
}

// The rules hand connections out in turn: as many connections as replicas reach each once.
for (let i = 0; i < backends.length; i++) {
  if (!(await answers())) {
    process.stderr.write(`a connection to 127.0.0.1:${port} through table ${table} reached no replica\n`);
    remove();
    process.exit(1);
  }
}
process.stdout.write(`PORT ${port}\n`);
