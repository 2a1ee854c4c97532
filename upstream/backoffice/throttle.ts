import { isIP, SocketAddress } from 'node:net';
/**
 * Wrong passwords, counted per account and client address. The first FREE failures cost nothing;
 * each one after that locks the pair for twice as long as the one before (1 s, 2 s, 4 s, …), never
 * longer than MAX_LOCK_MS. While a pair is locked its attempts are refused before the password is
 * looked at, and are not counted: so a thousand wrong passwords from one address
 * - let nobody in (each is refused, checked or not), and
 * - lock nobody out for ever: the pair opens at most MAX_LOCK_MS after the last checked failure,
 *   and the same account from any other address is not slowed by it (past ACCOUNT_FREE of the
 *   account's failures from all addresses, only those it has signed in from are not).
 * An attempt is counted when it is let through to the password check, before the check's 0.1 s,
 * and ended with its answer (`begin`): attempts sent together are let through no further than the
 * same attempts one after another. A success forgets the pair. The account's failures from every
 * address are counted too (ACCOUNT_FREE, `AccountTotals`). Kept in memory: a restart forgets every count, which only gives a
 * guesser FREE more tries, and several instances behind one balancer each count their own.
 */
export const FREE = 5;
/**
 * An account's failures from every address together that cost nothing; each one past them locks the
 * account, as a pair's past FREE lock the pair, for every address it has not signed in from
 * (`AccountTotals`). Counted per pair only, a guesser with 200 addresses had 1,000 passwords checked.
 */
export const ACCOUNT_FREE = 20;
export const MAX_LOCK_MS = 15 * 60_000;
/** A pair whose last failure is older than this starts again from nothing. */
const FORGET_MS = 2 * MAX_LOCK_MS;
/** Pairs remembered at most (a flood of made-up names must not grow memory without bound). */
const MAX_PAIRS = 100_000;

/** How long an attempt refused while others of its pair are being checked is told to wait (a check takes about 0.1 s). */
export const BUSY_WAIT_MS = 1000;

interface Pair {
  failures: number;
  lastFailure: number;
  lockedUntil: number;
  /** Attempts let through to the password check whose answer has not come yet. */
  inFlight: number;
}

/** An attempt let through to the password check: it counts against its pair until it ends, once. */
export interface Attempt {
  /** The password was wrong: a failure of the pair, which past FREE locks it. */
  failed(): void;
  /** The password was right: the pair is forgotten. */
  succeeded(): void;
  /** No answer (the check threw): given back, uncounted. */
  abandoned(): void;
}

export class SignInThrottle {
  private readonly pairs = new Map<string, Pair>();
  private readonly accounts = new AccountTotals();
  /** `now` counts milliseconds on a clock that never steps (a stepped wall clock would open or prolong a lock). */
  constructor(private readonly now: () => number = () => performance.now()) {}

  private key(account: string, address: string): string {
    return `${account}\u0000${clientOf(address)}`;
  }

  /**
   * An attempt of this pair, asked before its password is looked at: let through (`attempt`, to be
   * ended with its outcome) or told to wait (`waitMs`). It is counted at once, as the failure it may
   * turn out to be, so attempts that arrive together are let through no further than one after
   * another would be: while the pair is free, as many as its failures left before a lock plus one;
   * past that, one at a time, and none while it is locked.
   */
  begin(account: string, address: string): { attempt: Attempt } | { waitMs: number; by?: 'account' } {
    const key = this.key(account, address);
    const now = this.now();
    let p = this.pairs.get(key);
    if (p && p.inFlight === 0 && now - p.lastFailure > FORGET_MS) {
      this.pairs.delete(key);
      p = undefined;
    }
    if (p && p.lockedUntil > now) return { waitMs: p.lockedUntil - now };
    if (p && p.inFlight > 0 && p.failures + p.inFlight > FREE) return { waitMs: BUSY_WAIT_MS };
    const ofAccount = this.accounts.begin(account, clientOf(address), now);
    if ('waitMs' in ofAccount) return { waitMs: ofAccount.waitMs, by: 'account' };
    const pair = p ?? this.remember(key, { failures: 0, lastFailure: now, lockedUntil: 0, inFlight: 0 });
    pair.inFlight += 1;
    let ended = false;
    const end = (outcome: 'failed' | 'succeeded' | 'abandoned') => {
      if (ended) return;
      ended = true;
      // The pair it was counted in, unless a success or the bound on memory has forgotten it since.
      if (this.pairs.get(key) === pair) pair.inFlight -= 1;
      ofAccount.end(outcome, this.now());
      if (outcome === 'failed') this.failed(key);
      if (outcome === 'succeeded') this.pairs.delete(key);
    };
    return { attempt: { failed: () => end('failed'), succeeded: () => end('succeeded'), abandoned: () => end('abandoned') } };
  }

  private failed(key: string): void {
    const now = this.now();
    const p = this.pairs.get(key) ?? { failures: 0, lastFailure: now, lockedUntil: 0, inFlight: 0 };
    p.failures = now - p.lastFailure <= FORGET_MS ? p.failures + 1 : 1;
    p.lastFailure = now;
    p.lockedUntil = now + lockFor(p.failures, FREE);
    this.remember(key, p);
  }

  /** Kept as the newest pair; past MAX_PAIRS the oldest is forgotten. */
  private remember(key: string, p: Pair): Pair {
    this.pairs.delete(key);
    this.pairs.set(key, p);
    if (this.pairs.size > MAX_PAIRS) {
      const oldest = this.pairs.keys().next();
      if (!oldest.done) this.pairs.delete(oldest.value);
    }
    return p;
  }
}

/** The lock after `failures`: none up to `free`, then 1 s doubling with each failure, never past MAX_LOCK_MS. */
function lockFor(failures: number, free: number): number {
  const over = failures - free;
  return over > 0 ? Math.min(MAX_LOCK_MS, 1000 * 2 ** Math.min(over - 1, 30)) : 0;
}

interface Account extends Pair {
  /** Clients that signed in to the account since the start: the account's lock does not hold them (the newest KNOWN_CLIENTS). */
  known: Set<string>;
}

/** Clients remembered per account as having signed in to it. */
const KNOWN_CLIENTS = 32;

/**
 * An account's wrong passwords from every address together, in the pairs' style: ACCOUNT_FREE cost
 * nothing, each one past them locks the account for twice as long as the one before, and attempts
 * are counted when let through (as many at once as failures are left, plus one). The lock holds
 * every client but those that signed in to the account since the start, so a guesser's failures do
 * not keep the staff's own screens out (each still held by its own pair); a success forgets
 * nothing of the count, or a guesser's budget would come back each time the user signed in.
 */
class AccountTotals {
  private readonly accounts = new Map<string, Account>();

  begin(account: string, client: string, now: number): { waitMs: number } | { end(outcome: 'failed' | 'succeeded' | 'abandoned', now: number): void } {
    const a = this.accounts.get(account);
    // Its last failure long past: counted from nothing again, its known clients kept.
    if (a && a.inFlight === 0 && now - a.lastFailure > FORGET_MS) {
      a.failures = 0;
      a.lockedUntil = 0;
    }
    const held = a !== undefined && !a.known.has(client);
    if (a && held && a.lockedUntil > now) return { waitMs: a.lockedUntil - now };
    if (a && held && a.inFlight > 0 && a.failures + a.inFlight > ACCOUNT_FREE) return { waitMs: BUSY_WAIT_MS };
    const acct = a ?? this.remember(account, { failures: 0, lastFailure: now, lockedUntil: 0, inFlight: 0, known: new Set() });
    acct.inFlight += 1;
    return {
      end: (outcome, at) => {
        if (this.accounts.get(account) !== acct) return;
        acct.inFlight -= 1;
        if (outcome === 'succeeded') {
          acct.known.delete(client);
          acct.known.add(client);
          if (acct.known.size > KNOWN_CLIENTS) acct.known.delete(acct.known.values().next().value ?? client);
        }
        if (outcome !== 'failed') return;
        acct.failures = at - acct.lastFailure <= FORGET_MS ? acct.failures + 1 : 1;
        acct.lastFailure = at;
        acct.lockedUntil = at + lockFor(acct.failures, ACCOUNT_FREE);
      },
    };
  }

  /** Past MAX_PAIRS accounts (made-up names) the oldest is forgotten. */
  private remember(account: string, a: Account): Account {
    this.accounts.set(account, a);
    if (this.accounts.size > MAX_PAIRS) {
      const oldest = this.accounts.keys().next();
      if (!oldest.done) this.accounts.delete(oldest.value);
    }
    return a;
  }
}

/**
 * The client an address is counted as: an IPv4 address itself (an IPv4-mapped IPv6 one too, in
 * either form), and of an IPv6 address its /64, one subscriber's network. Counted per IPv6 address,
 * a guesser holding a /64 had 2^64 addresses, each with its FREE guesses (a review of 6 December).
 * Read through node:net and the URL parser, never by hand: a trusted proxy's X-Forwarded-For may
 * give the client's port ([v6]:port, v4:port) or a zone, and each port read as its own client had
 * its own FREE guesses; `::ffff:cb00:7105` (203.0.113.5 mapped, in hex) was the /64 of ::, shared by
 * every IPv4 client written so. Anything that is no address is counted as written.
 */
export function clientOf(address: string): string {
  const ip = addressOf(address);
  if (ip === undefined) return address;
  if (isIP(ip) === 4) return ip;
  const groups = v6Groups(ip);
  const [g6 = 0, g7 = 0] = groups.slice(6);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The address alone: its zone (%eth0, %25eth0) and its port ([v6]:port, v4:port) left out; undefined if it is none. */
function addressOf(written: string): string | undefined {
  const bare = written.trim().replace(/%[^\]]*/, '');
  if (isIP(bare) !== 0) return bare;
  const parsed = SocketAddress.parse(bare);
  return parsed && isIP(parsed.address) !== 0 ? parsed.address : undefined;
}

/** An IPv6 address's eight groups: the URL parser writes it canonical (lower case, an IPv4 tail in hex), then `::` is filled. */
function v6Groups(ip: string): number[] {
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => Number.parseInt(g, 16));
}
