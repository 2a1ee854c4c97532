import { MAX_NONCES_ASKED } from './subjects.js';

/** How old a nonce may be to be offered: the host's are good 10 s, and the station needs the rest to sign and answer. */
const OFFER_MS = 4000;

/**
 * An edge's nonces from the host (issue 55), asked for in batches so that greeting a connection
 * costs the host one request per many stations, not one each: in a reconnect storm of a thousand
 * stations the host answers a few asks, not a thousand. One ask at a time; its size follows the
 * connections waiting (at least 16, at most `MAX_NONCES_ASKED`). A nonce older than `OFFER_MS`
 * is thrown away unoffered, so an idle edge asks for nothing and a station always has time.
 */
export class NoncePool {
  private readonly fresh: { nonce: string; at: number }[] = [];
  /** Nonces offered to a connection and not yet spent or given back, with when they came: pruned past `OFFER_MS`, so bounded by the greetings of 4 s. */
  private readonly offered = new Map<string, number>();
  private readonly waiting: ((nonce: string | null) => void)[] = [];
  private asking = false;

  constructor(
    private readonly ask: (count: number) => Promise<string[]>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  take(): Promise<string | null> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.serve();
    });
  }

  /**
   * A nonce this pool offered that its connection never proved a station on (it went before its
   * hello, or its proof failed the edge's own check, so the host never saw it): offered again
   * while fresh. A connection that takes its challenge and goes then costs the host nothing; before,
   * each wasted one of the edge's share at the host (2,048 for 10 s), and a flood of them at some
   * 205 a second from the LAN left real stations "the table gave no nonce". Safe to offer again: a
   * nonce is good only on the connection it greeted, and only with the station's proof on it.
   */
  giveBack(nonce: string): void {
    const at = this.offered.get(nonce);
    if (at === undefined) return;
    this.offered.delete(nonce);
    if (this.now() - at > OFFER_MS) return;
    const i = this.fresh.findIndex((f) => f.at > at);
    this.fresh.splice(i === -1 ? this.fresh.length : i, 0, { nonce, at });
    this.serve();
  }

  /** The nonce was sent to the host with a proof (spent there, whatever the answer): never offered again. */
  spent(nonce: string): void {
    this.offered.delete(nonce);
  }

  private serve(): void {
    const now = this.now();
    while (this.fresh.length > 0 && now - (this.fresh[0]?.at ?? 0) > OFFER_MS) this.fresh.shift();
    for (const [nonce, at] of this.offered) if (now - at > OFFER_MS) this.offered.delete(nonce);
    while (this.waiting.length > 0 && this.fresh.length > 0) {
      const f = this.fresh.shift();
      if (!f) break;
      this.offered.set(f.nonce, f.at);
      this.waiting.shift()?.(f.nonce);
    }
    if (this.waiting.length === 0 || this.asking) return;
    this.asking = true;
    const count = Math.min(MAX_NONCES_ASKED, Math.max(16, this.waiting.length * 2));
    void this.ask(count).then((nonces) => {
      this.asking = false;
      const at = this.now();
      for (const nonce of nonces) this.fresh.push({ nonce, at });
      // None given (the host's refusal, or no answer): the connections waiting are told so, not kept.
      if (nonces.length === 0) for (const w of this.waiting.splice(0)) w(null);
      this.serve();
    });
  }
}
