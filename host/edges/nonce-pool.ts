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

  private serve(): void {
    const now = this.now();
    while (this.fresh.length > 0 && now - (this.fresh[0]?.at ?? 0) > OFFER_MS) this.fresh.shift();
    while (this.waiting.length > 0 && this.fresh.length > 0) this.waiting.shift()?.(this.fresh.shift()?.nonce ?? null);
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
