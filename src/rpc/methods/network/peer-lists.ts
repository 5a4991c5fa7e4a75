/**
 * What zcashd keeps about peers even while it has no connection: the addnode list (vAddedNodes)
 * and the ban list (setBanned, src/net.cpp). zecrpc never connects to them; it keeps both lists
 * as zcashd would, in memory (zcashd also writes banlist.dat; a restarted zecrpc starts with an
 * empty ban list), so addnode, getaddednodeinfo, setban, listbanned and clearbanned answer alike.
 */
import { compareSubNets, subNetMatches, type NetAddr, type SubNet } from './net-address.js';

/** DEFAULT_MISBEHAVING_BANTIME (src/net.h): -bantime's default, 24 hours. */
export const DEFAULT_BAN_SECONDS = 24 * 60 * 60;

export interface BanEntry {
  subNet: SubNet;
  createdAt: number;
  /** int64 seconds: an absolute ban time may lie beyond what a double holds exactly. */
  bannedUntil: bigint;
}

export class PeerLists {
  /** vAddedNodes, in insertion order. */
  readonly addedNodes: string[] = [];
  private bans: BanEntry[] = [];

  constructor(
    /** GetTime(), in seconds. */
    readonly now: () => number,
    private readonly banSeconds = DEFAULT_BAN_SECONDS,
  ) {}

  private find(subNet: SubNet): BanEntry | undefined {
    return this.bans.find((b) => compareSubNets(b.subNet, subNet) === 0);
  }

  /** CNode::IsBanned(CSubNet): this exact subnet has a ban still running. */
  isSubNetBanned(subNet: SubNet): boolean {
    const entry = this.find(subNet);
    return entry !== undefined && BigInt(this.now()) < entry.bannedUntil;
  }

  /** CNode::IsBanned(CNetAddr): some running ban covers the address. */
  isAddressBanned(ip: NetAddr): boolean {
    const now = BigInt(this.now());
    return this.bans.some((b) => subNetMatches(b.subNet, ip) && now < b.bannedUntil);
  }

  /**
   * CNode::Ban: a non-positive offset means -bantime from now; an existing entry is replaced
   * only by a later end. Expired entries are swept first (zcashd sweeps them periodically), so
   * the list holds only running bans.
   */
  ban(subNet: SubNet, offset: bigint, sinceEpoch: boolean): void {
    const now = this.now();
    this.bans = this.bans.filter((b) => BigInt(now) < b.bannedUntil);
    const until = offset <= 0n ? BigInt(now + this.banSeconds) : (sinceEpoch ? 0n : BigInt(now)) + offset;
    const existing = this.find(subNet);
    if (existing) {
      if (existing.bannedUntil < until) Object.assign(existing, { createdAt: now, bannedUntil: until });
      return;
    }
    this.bans.push({ subNet, createdAt: now, bannedUntil: until });
    this.bans.sort((a, b) => compareSubNets(a.subNet, b.subNet));
  }

  /** CNode::Unban: false when the subnet had no entry. */
  unban(subNet: SubNet): boolean {
    const before = this.bans.length;
    this.bans = this.bans.filter((b) => compareSubNets(b.subNet, subNet) !== 0);
    return this.bans.length < before;
  }

  /** The ban map in its key order. */
  banned(): readonly BanEntry[] {
    return this.bans;
  }

  clearBanned(): void {
    this.bans = [];
  }
}
