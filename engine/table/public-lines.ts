import type { SettledLine } from './state.js';
import type { Prize } from './vocabulary.js';

/** A settlement line as the screens show it: whose it is (the seat's own player or a bettor behind), never which station. */
export interface ResultLineView extends Omit<SettledLine, 'station' | 'choices'> {
  readonly choices?: string[];
  readonly owner: 'seat' | 'behind';
  readonly prize?: Prize;
}

/**
 * The most settlement lines the public round carries one by one. Its schema takes 2,048 and a
 * screen takes a message of 1 MiB; a line may be 1.6 KB (a rule and a reference of 128 characters,
 * twelve choices of 96), so 2,048 are 3.2 MB. A round the rules allow comes near: Portugal sets
 * no limit on splitting and ten bettors a seat (rule 15), so one seat of 99 hands with nine
 * bettors behind it following is 990 lines; an eight-deck shoe deals some 200 hands, 2,000 lines.
 */
export const PUBLIC_LINES = 400;

/**
 * A summed line's rule when the distinct rules of its lines do not fit one line's RULE_CHARS: the
 * screens say it as several rules, in words (locales/citation.ts, `citation.several`).
 */
export const RULES_SEVERAL = '…';

/** The most characters of a settlement line's rule (the protocol's ResultLine and recalled lines). */
export const RULE_CHARS = 128;

/**
 * The rule of lines summed into one: the one rule they were all settled under; else each distinct
 * rule whole, in the order first met, joined by ` · `, when all fit RULE_CHARS; else RULES_SEVERAL.
 * Never one rule for lines settled under others, nor a citation cut short: a wrong citation is
 * worse than none. Before, the public round's sum said the first line's rule cut to 120 characters
 * and ` · …` (read as that article, and a long one cut mid-article), and a station's recall the
 * rules that fit and ` · …` for the rest.
 */
export function rulesSaid(rules: readonly string[]): string {
  const said = [...new Set(rules)].join(' · ');
  return said.length <= RULE_CHARS ? said : RULES_SEVERAL;
}

/**
 * The round's lines as the public round carries them: every one while they are PUBLIC_LINES or
 * fewer; past it the bets behind summed, each seat's bet's hand as one line (every bettor behind
 * it), then, if still past, each seat's bet as one: the seats' own lines (which the table shows)
 * are kept whole, and every minor unit of the stakes and nets behind is kept. No screen reads a
 * line behind one by one (each station is sent its own net and prizes in its own part). At most
 * about 300 lines are left (a seat's own lines by its hands, one each, and some 40 sums behind),
 * under 1 MiB at their largest with the largest hands.
 */
export function publicLines(lines: ResultLineView[]): ResultLineView[] {
  if (lines.length <= PUBLIC_LINES) return lines;
  const byHand = sumBehind(lines, (l) => `${l.seat}|${l.bet}|${l.hand ?? ''}`);
  return byHand.length <= PUBLIC_LINES ? byHand : sumBehind(byHand, (l) => `${l.seat}|${l.bet}`);
}

/** The lines behind merged by `key` (at their first's place), the seats' own as they are. */
function sumBehind(lines: readonly ResultLineView[], key: (l: ResultLineView) => string): ResultLineView[] {
  const groups = new Map<string, ResultLineView[]>();
  const out: (ResultLineView | ResultLineView[])[] = [];
  for (const l of lines) {
    if (l.owner !== 'behind') {
      out.push(l);
      continue;
    }
    const k = key(l);
    const g = groups.get(k);
    if (g) g.push(l);
    else {
      const fresh = [l];
      groups.set(k, fresh);
      out.push(fresh);
    }
  }
  return out.map((x) => (Array.isArray(x) ? summed(x) : x));
}

/** Lines behind as one: stakes, nets and hand pays summed; what they all say alike kept, their rules as `rulesSaid` says them. */
function summed(g: readonly ResultLineView[]): ResultLineView {
  const first = g[0]!;
  if (g.length === 1) return first;
  const alike = (f: (l: ResultLineView) => string) => g.every((l) => f(l) === f(first));
  const handpay = g.reduce((a, l) => a + (l.handpay ?? 0), 0);
  const choices = alike((l) => JSON.stringify(l.choices ?? [])) && alike((l) => l.authorisation ?? '');
  return {
    seat: first.seat,
    bet: first.bet,
    ...(alike((l) => String(l.hand)) && first.hand !== undefined ? { hand: first.hand } : {}),
    stake: g.reduce((a, l) => a + l.stake, 0),
    net: g.reduce((a, l) => a + l.net, 0),
    rule: rulesSaid(g.map((l) => l.rule)),
    ...(choices && first.choices ? { choices: first.choices } : {}),
    ...(choices && first.authorisation ? { authorisation: first.authorisation } : {}),
    ...(handpay > 0 ? { handpay } : {}),
    ...(g.every((l) => l.carried) ? { carried: true as const } : {}),
    owner: 'behind',
  };
}
