import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ViewName } from '../../protocol/index.js';

/**
 * One random token per screen per launch. A token names the one view it grants, so a process
 * that the kiosk did not start cannot connect, and a station cannot read another station.
 */
export class LaunchTokens {
  private readonly byView = new Map<ViewName, string>();

  constructor(views: readonly ViewName[], given?: ReadonlyMap<ViewName, string>) {
    for (const v of views) this.byView.set(v, given?.get(v) ?? randomBytes(24).toString('base64url'));
  }

  /**
   * The tokens of this launch, kept in `file` (owner-only, beside the ledger). After an unclean
   * stop (a kill, a power cut) the screens of the previous run are still open and reconnect with
   * their tokens, so those are taken again; a clean start gets new ones.
   */
  static forLaunch(views: readonly ViewName[], file: string, reuse: boolean): LaunchTokens {
    let given: Map<ViewName, string> | undefined;
    if (reuse && existsSync(file)) {
      try {
        const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        given = new Map(views.flatMap((v) => (typeof saved[v] === 'string' && (saved[v] as string).length >= 32 ? [[v, saved[v] as string] as const] : [])));
      } catch {
        given = undefined; // unreadable: new tokens, the screens are relaunched
      }
    }
    const tokens = new LaunchTokens(views, given);
    writeFileSync(file, JSON.stringify(Object.fromEntries(tokens.entries())), { mode: 0o600, flush: true });
    return tokens;
  }

  tokenFor(view: ViewName): string {
    const t = this.byView.get(view);
    if (!t) throw new Error(`no launch token for view ${view}`);
    return t;
  }

  entries(): [ViewName, string][] {
    return [...this.byView.entries()];
  }

  /** The view a token grants, compared in constant time; null for an unknown token. */
  viewOf(token: string): ViewName | null {
    const given = Buffer.from(token);
    let found: ViewName | null = null;
    for (const [view, t] of this.byView) {
      const expected = Buffer.from(t);
      if (expected.length === given.length && timingSafeEqual(expected, given)) found = view;
    }
    return found;
  }
}
