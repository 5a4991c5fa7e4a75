/** The ports a balancer holder (haproxy-server.ts, nft-balancer-server.ts) puts in front: `BACKENDS="<port> <port> …"`. */
export function backendPortsFromEnv(): number[] {
  const ports = (process.env.BACKENDS ?? '')
    .split(' ')
    .filter((p) => p !== '')
    .map(Number);
  if (ports.length === 0 || !ports.every((p) => Number.isInteger(p) && p > 0 && p < 65_536))
    throw new Error(`BACKENDS must list the backends' ports, not ${JSON.stringify(process.env.BACKENDS)}`);
  return ports;
}
