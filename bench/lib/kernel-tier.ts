/**
 * zecrpc's bench servers as replicas on one host sharing one address through the kernel:
 * deploy/nftables-replicas.nft, each new connection handed by nftables' NAT to one replica in
 * turn (nft-balancer-server.ts holds the rules). Nothing runs between client and replica, so
 * the tier's CPU a request is the replicas' own (and the kernel's address rewriting, charged to
 * whoever sends the packet); what it gives up against HAProxy is in docs/scale-out.md.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findSystemTool } from '../../test/support/replica-tier.js';
import { startChildServer, type ChildOptions, type ChildServer } from './child-server.js';

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const SHIPPED = join(REPO, 'deploy', 'nftables-replicas.nft');

/** The `nft` binary (Debian's nftables package), or null. */
export const findNft = (): string | null => findSystemTool('nft');

/** The shipped file's replica ports, in order: REPLICA1_PORT, REPLICA2_PORT, … */
function shippedReplicaDefines(text: string): string[] {
  return [...text.matchAll(/^define (REPLICA\d+_PORT) = \d+$/gm)].map((m) => m[1]!);
}

/** How many replicas deploy/nftables-replicas.nft spreads over. */
export function shippedReplicaCount(): number {
  return shippedReplicaDefines(readFileSync(SHIPPED, 'utf8')).length;
}

/**
 * deploy/nftables-replicas.nft on 127.0.0.1: clients on `port`, replica i on `backends[i]`,
 * the table named `table`; everything else as shipped.
 */
export function nftablesRules(port: number, backends: readonly number[], table: string): string {
  let text = readFileSync(SHIPPED, 'utf8');
  const defines = shippedReplicaDefines(text);
  if (defines.length !== backends.length)
    throw new Error(`deploy/nftables-replicas.nft spreads over ${defines.length} replicas, not ${backends.length}`);
  const set = (name: string, value: string | number): void => {
    const line = new RegExp(`^define ${name} = .+$`, 'm');
    if (!line.test(text)) throw new Error(`deploy/nftables-replicas.nft: no define ${name}`);
    text = text.replace(line, `define ${name} = ${value}`);
  };
  set('RPC_ADDRESS', '127.0.0.1');
  set('RPC_PORT', port);
  defines.forEach((name, i) => set(name, backends[i]!));
  if (!/^table ip zecrpc_replicas \{$/m.test(text)) throw new Error('deploy/nftables-replicas.nft: no table ip zecrpc_replicas');
  // Every mention, the lines that empty the table first included: an operator's table on the same host is never touched.
  return text.replace(/\bzecrpc_replicas\b/g, table);
}

/** Connections each replica chain's counter has seen, in replica order, from `nft -j list table`. */
export function connectionsPerReplica(listing: string): number[] {
  const rules = (JSON.parse(listing) as { nftables: { rule?: { chain: string; expr: { counter?: { packets: number } }[] } }[] }).nftables;
  const counts: { replica: number; packets: number }[] = [];
  for (const { rule } of rules) {
    const m = rule ? /^replica(\d+)$/.exec(rule.chain) : null;
    const counter = rule?.expr.find((e) => e.counter)?.counter;
    if (m && counter) counts.push({ replica: Number(m[1]), packets: counter.packets });
  }
  return counts.sort((a, b) => a.replica - b.replica).map((c) => c.packets);
}

export interface KernelTier {
  /** Where clients connect (nothing listens there: nftables rewrites each connection to a replica). */
  port: number;
  replicas: readonly ChildServer[];
  /** Connections handed to each replica so far. */
  connections(): number[];
  stop(): Promise<void>;
}

/** nftables in front of `replicas` (already listening), as nft-balancer-server.ts loads it. */
export async function startKernelTier(replicas: readonly ChildServer[], options: Pick<ChildOptions, 'mode'> = {}): Promise<KernelTier> {
  const nft = findNft();
  if (nft === null) throw new Error('nft is not installed (Debian package nftables): the kernel tier needs it');
  const holder = await startChildServer('bench/lib/nft-balancer-server.ts', { BACKENDS: replicas.map((r) => r.port).join(' ') }, options);
  const table = tableName(holder.port);
  return {
    port: holder.port,
    replicas,
    connections: () => connectionsPerReplica(execFileSync(nft, ['-j', 'list', 'table', 'ip', table], { encoding: 'utf8' })),
    stop: () => holder.stop(),
  };
}

/** The table a holder makes for clients on `port`: one per tier, so tiers and runs never share rules. */
export function tableName(port: number): string {
  return `zecrpc_bench_${port}`;
}
