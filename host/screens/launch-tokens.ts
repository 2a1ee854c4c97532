import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ViewName } from '../../protocol/index.js';

/**
 * One random token per screen per launch. A token names the one view it grants, so a process
 * that the kiosk did not start cannot connect, and a station cannot read another station.
 */
export class LaunchTokens {
  private readonly byView = new Map<ViewName, string>();

  constructor(views: readonly ViewName[]) {
    for (const v of views) this.byView.set(v, randomBytes(24).toString('base64url'));
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
