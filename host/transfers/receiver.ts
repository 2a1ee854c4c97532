import { keyOf, sameTerms, type TableId, type Transfer, type TransferId, type TransferRefusal } from '../../terms/transfer-terms.js';
import { NO_EFFECTS, type TransferAlarmReason, type TransferEffects } from './effects.js';
import { AT_LIMIT_SPARE, atLimitBound, atLimitOn, decidedFrom, refusedOn, homeOf, incomingOf, sentKey, type Incoming, type TransferState } from './state.js';

// The receiving side: an id is decided once, taken (the station credited) or refused for ever,
// journalled before the answer goes out; every later question about the id gets the same answer
// from the journal, whatever it claims. An offer is taken only for a station of this table that
// the offering table may move (homed there, or homed here and sent there), in the table's
// currency, for an amount the station's credit can hold; any other is refused and raised as an
// alarm (docs/security.md, "Transfers between table hosts").

function alarm(link: TableId, reason: TransferAlarmReason, id: TransferId, detail: string): TransferEffects {
  return { journal: [], send: [], alarms: [{ reason, link, id, detail }] };
}

/** What the journal says of an id, sent back over the link. */
function answer(state: TransferState, link: TableId, id: TransferId): TransferEffects | undefined {
  const i = incomingOf(state, id);
  if (!i) return undefined;
  const message = i.kind === 'taken' ? { kind: 'taken' as const, transfer: i.transfer } : { kind: 'refused' as const, id, reason: i.reason };
  return { journal: [], send: [{ to: link, message }], alarms: [] };
}

/**
 * How many ids a link may have refused here a day (the receiver's UTC date, stamped on each: `day`)
 * beyond the ids this host took from it. A refusal is
 * a durable entry that spends the id for ever (a recall of an id never seen must be, so that the
 * offer still on the wire is refused too: an honest sender reverses on it), so without a bound a
 * peer could journal one a message (recalls of serials 1, 2, 3…, or offers it knows are refused).
 * Counted, not a window of serials: a sender's serials are its own across all its peers, so an
 * honest recall may name any serial, and one transfer taken with a high serial would open every
 * serial below it. An honest link refuses rarely (an offer lost for a minute, then recalled), and
 * each transfer it has taken here allows one more; a peer past it gets neither entry nor answer
 * (it is asked again: the honest sender never reverses unanswered) and an alarm. Not counted: a
 * refusal at the credit limit, which the station's credit here justifies (`refusedAtLimit`).
 * A day, not the link's whole life: an honest table whose offers were lost while this one was
 * unreachable (a restart, a switch replaced, a night closed) recalls each, and a link that moved
 * rarely wore its allowance out for good over weeks; from then on a lost offer's debit stayed in
 * flight. A lying link adds at most this many rows a day (and one per id taken).
 */
export const SPARE_REFUSALS = 64;

/**
 * How many refusals at the credit limit a link may have journalled here a day (the receiver's UTC
 * date, stamped on each: `day`) beyond the ids this host took from it that day. Such a refusal is
 * not the link's lie, so it spends nothing of `SPARE_REFUSALS`, but it is a durable row: a review
 * found that a peer offering more than the whole limit, to any station, journalled 20 a minute for
 * as long as it liked (28,800 a day). Past the bound an offer at the limit is the alarm only,
 * unanswered, and the honest sender recalls it within a minute (a recall is counted against
 * `SPARE_REFUSALS`, and reversed). A day, not the link's whole life: a second review (L2) found
 * that a station often full (a player pressing Move again and again, a credit limit lowered) wore
 * an honest link out after 1,000 more refusals than moves over weeks, for ever, restarts included.
 * A lying link adds at most this many rows (and one per move taken) a day; an honest one is told
 * to a technician at `AT_LIMIT_NEAR` of it, once a day (state.ts).
 */
export { AT_LIMIT_SPARE } from './state.js';

/** Whether this host may journal one more refusal of an id of the origin `link` on `day`; if not, the alarm's detail. */
function overAllowance(state: TransferState, link: TableId, id: TransferId, what: string, day: string | undefined): string | undefined {
  const d = refusedOn(decidedFrom(state, link), day);
  if (d.refused < SPARE_REFUSALS + d.taken) return undefined;
  return `${what} ${keyOf(id)}: neither journalled nor answered, ${link} has ${d.refused} ids refused here on ${day ?? 'undated'} and ${d.taken} taken (at most ${SPARE_REFUSALS} refused a day beyond those taken)`;
}

/** A refusal's stamp: the receiver's day, by its own clock (none when the step was given no time). */
function dated(day: string | undefined): { day?: string } {
  return day === undefined ? {} : { day };
}

/** Only the sender may speak of its transfer: the id's origin is the link it came over. */
function fromItsSender(link: TableId, id: TransferId): boolean {
  return id.origin === link;
}

/** Why an offer is refused: each is also an alarm but the credit limit (a recall's refusal is not: an honest sender recalls). */
type OfferRefusal = Exclude<TransferRefusal, 'recalled'> & TransferAlarmReason;

/**
 * Why this table refuses an offer it has not decided yet, and what the alarm says; none when it
 * takes it. The offering table is believed only for a station it may move: one homed there (its
 * credit leaving home), or one homed here that this table sent there (its credit coming home).
 */
function refusalOf(
  state: TransferState,
  link: TableId,
  t: Transfer,
  credit: (station: number) => number,
): { reason: OfferRefusal; detail: string } | undefined {
  const key = keyOf(t.id);
  if (t.currency !== state.currency) return { reason: 'wrong-currency', detail: `${key}: ${t.amount} ${t.currency} offered to a ${state.currency} table` };
  const home = homeOf(state, t.station);
  if (home === undefined) return { reason: 'unknown-station', detail: `${key}: station ${t.station} is no station of this table` };
  if (home !== link && home !== state.self)
    return { reason: 'homed-elsewhere', detail: `${key}: station ${t.station} is homed at ${home}; ${link} offered its credit` };
  if (home === state.self && !state.sentTo[sentKey(t.station, link)])
    return { reason: 'never-sent-there', detail: `${key}: station ${t.station} is homed here and its credit was never sent to ${link}` };
  const now = credit(t.station);
  if (!Number.isSafeInteger(now + t.amount))
    return { reason: 'over-limit', detail: `${key}: ${t.amount} on station ${t.station}'s credit of ${now} passes the largest safe integer` };
  return undefined;
}

/** The table's credit limit as an offer is held to it (docs/sas.md, "The station credit limit"). */
export interface CreditLimitAt {
  /** The most a station here may hold. */
  readonly limit: number;
  /** What the station holds or has been promised: the room every other credit in is held to (its credit alone would miss a ticket approved and not yet stacked). */
  readonly held: (station: number) => number;
  /** The link's budget of `credit-limit` refusals is spent for now (transfer-host.ts): such an offer is neither journalled nor answered. */
  readonly budgetSpent?: boolean;
  /** The day a refusal now is counted in and stamped with (state.ts `refusalDayOf`, of the host's clock); none: undated. */
  readonly day?: string;
}

/** An offer the station here cannot take under the table's credit limit. */
function overCreditLimit(t: Transfer, at: CreditLimitAt): { reason: 'credit-limit'; detail: string } | undefined {
  const now = at.held(t.station);
  if (now + t.amount <= at.limit) return undefined;
  return {
    reason: 'credit-limit',
    detail: `${keyOf(t.id)}: ${t.amount} on station ${t.station}'s credit and promised credit of ${now} passes its limit of ${at.limit}`,
  };
}

/**
 * A refusal at the credit limit: the receiver's own state justifies it, so it is not counted against
 * the link's allowance of refusals (an honest player pressing Move toward a full station would spend
 * it, and every later refusal on the link would go unanswered, the debits stranded). Journalled as
 * every refusal (the id is spent; an honest sender reverses its debit on the answer) and no alarm:
 * the sender cannot know the credit here. Bounded instead by the host's budget of such refusals a
 * minute per link (transfer-host.ts), and a day by `AT_LIMIT_SPARE`: past either, only the alarm,
 * and the sender, unanswered, asks again (or recalls).
 */
function refusedAtLimit(state: TransferState, link: TableId, t: Transfer, detail: string, at: CreditLimitAt): TransferEffects {
  const d = atLimitOn(decidedFrom(state, link), at.day);
  const { bound, near } = atLimitBound(d);
  const today = at.day ?? 'undated';
  if (d.atLimit >= bound)
    return alarm(
      link,
      'credit-limit',
      t.id,
      `${detail}; neither journalled nor answered: ${link} has ${d.atLimit} offers refused here at the credit limit on ${today} and ${d.takenOnDay} taken since the first (at most ${AT_LIMIT_SPARE} beyond those taken, a day)`,
    );
  if (at.budgetSpent)
    return alarm(link, 'credit-limit', t.id, `${detail}; neither journalled nor answered: the link's refusals at the credit limit this minute are spent`);
  // The refusal that reaches the share of the bound is also said once (the fold marks the day
  // `warned`): an honest link saturated by a full station is seen before it goes unanswered.
  const warn =
    !d.warned && d.atLimit + 1 >= near
      ? [
          {
            reason: 'credit-limit' as const,
            link,
            id: t.id,
            detail: `${link} nears the bound of refusals at the credit limit: ${d.atLimit + 1} on ${today} of ${bound} (${AT_LIMIT_SPARE} and ${d.takenOnDay} taken); past it, offers at the limit go unanswered until the next day (UTC)`,
          },
        ]
      : [];
  return {
    journal: [{ type: 'transfer.refuse', payload: { id: t.id, reason: 'credit-limit', offered: t, ...dated(at.day) } }],
    send: [{ to: link, message: { kind: 'refused', id: t.id, reason: 'credit-limit' } }],
    alarms: warn,
  };
}

/** An offer on other terms than the ones this table decided the id on (a refusal of a recall has none to compare). */
function changedTerms(i: Incoming, t: Transfer): string | undefined {
  if (i.kind === 'taken') return sameTerms(i.transfer, t) ? undefined : `${keyOf(t.id)} offered again for ${t.amount}; taken for ${i.transfer.amount}`;
  if (!i.offered || sameTerms(i.offered, t)) return undefined;
  return `${keyOf(t.id)} offered again for ${t.amount} ${t.currency} to station ${t.station}; refused (${i.reason}) as offered for ${i.offered.amount} ${i.offered.currency} to station ${i.offered.station}`;
}

/**
 * An offer over `link`; `credit` is each station's credit now, as the journal's accounts say,
 * `creditLimit` the table's limit (none: the largest safe integer, held to the credit), and
 * `locked` whether a station is under the casino system's AFT game lock now.
 */
export function onOffer(
  state: TransferState,
  link: TableId,
  transfer: Transfer,
  credit: (station: number) => number,
  creditLimit: CreditLimitAt = { limit: Number.MAX_SAFE_INTEGER, held: credit },
  locked: (station: number) => boolean = () => false,
): TransferEffects {
  const id = transfer.id;
  if (!fromItsSender(link, id) || transfer.from !== link)
    return alarm(link, 'wrong-link', id, `${keyOf(id)} from ${transfer.from} offered over the link of ${link}`);
  if (transfer.to !== state.self) return alarm(link, 'not-for-us', id, `${keyOf(id)} is for ${transfer.to}`);
  const decided = incomingOf(state, id);
  const known = answer(state, link, id);
  if (decided && known) {
    const changed = changedTerms(decided, transfer);
    return changed ? { ...known, alarms: [{ reason: 'terms-changed', link, id, detail: changed }] } : known;
  }
  const refusal = refusalOf(state, link, transfer, credit) ?? overCreditLimit(transfer, creditLimit);
  // The casino system's AFT game lock holds the station's credit meter still between its 0x74 and
  // its 0x72 (SAS 6.02 §8.4; docs/sas.md, "The game lock"), as it holds notes, tickets and bets off:
  // a move in waits, neither journalled nor answered (nothing spent), and the honest sender's next
  // ask after the lock (at most 99.99 s) is taken. What moves no credit here is answered as ever.
  if (!refusal && locked(transfer.station)) return NO_EFFECTS;
  if (!refusal) return { journal: [{ type: 'transfer.in', payload: { transfer } }], send: [{ to: link, message: { kind: 'taken', transfer } }], alarms: [] };
  if (refusal.reason === 'credit-limit') return refusedAtLimit(state, link, transfer, refusal.detail, creditLimit);
  const over = overAllowance(state, link, id, `an offer refused (${refusal.reason}),`, creditLimit.day);
  // Past the link's allowance: raised only, nothing spent (the same offer again is refused the same way, or taken).
  if (over) return alarm(link, refusal.reason, id, `${refusal.detail}; ${over}`);
  // Journalled as every refusal (the id is spent; an honest sender reverses its debit on the
  // answer) and raised: a table that offers what it may not is lying or misconfigured.
  return {
    journal: [{ type: 'transfer.refuse', payload: { id, reason: refusal.reason, offered: transfer, ...dated(creditLimit.day) } }],
    send: [{ to: link, message: { kind: 'refused', id, reason: refusal.reason } }],
    alarms: [{ reason: refusal.reason, link, id, detail: refusal.detail }],
  };
}

/**
 * A recall over `link`: the journalled answer, or, for an id never seen, a refusal journalled (the
 * id spent) within the link's allowance; past it, an alarm (`unknown-transfer`) and no answer.
 */
export function onRecall(state: TransferState, link: TableId, id: TransferId, day?: string): TransferEffects {
  if (!fromItsSender(link, id)) return alarm(link, 'wrong-link', id, `a recall of ${keyOf(id)} over the link of ${link}`);
  const known = answer(state, link, id);
  if (known) return known;
  const over = overAllowance(state, link, id, 'a recall of an id never offered here,', day);
  if (over) return alarm(link, 'unknown-transfer', id, over);
  return {
    journal: [{ type: 'transfer.refuse', payload: { id, reason: 'recalled', ...dated(day) } }],
    send: [{ to: link, message: { kind: 'refused', id, reason: 'recalled' } }],
    alarms: [],
  };
}
