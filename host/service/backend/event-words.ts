import { Currency } from '../../../protocol/index.js';
import { bounded, type SaidValue } from '../../../locales/said.js';
import { journalSaid, type JournalSaidPayload } from '../../../terms/said.js';
import { voidReason } from './tickets.js';

/** The fields the words read, each where it reads as what it is; else null. */
interface Fields {
  readonly station: number | null;
  readonly amount: number | null;
  /** A currency the screens have words for: a note's or a ticket's minor units said without one would read as a sum of the table's. */
  readonly currency: string | null;
  /** A ticket's number as the log shows it (its last four digits, event-log.ts). */
  readonly ticket: string | null;
  readonly text: (name: string) => string | null;
}

const said = (name: string, values: Record<string, SaidValue> = {}): JournalSaidPayload => ({ key: `journalSaid.${name}`, values: bounded(values) });
const safe = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);

function fieldsOf(p: Readonly<Record<string, unknown>>): Fields {
  const currency = Currency.safeParse(p.currency);
  return {
    station: safe(p.station),
    amount: safe(p.amount),
    currency: currency.success ? currency.data : null,
    ticket: typeof p.validation === 'string' ? p.validation : null,
    text: (name) => (typeof p[name] === 'string' ? p[name] : null),
  };
}

/**
 * What the event log says of an entry of a kind it knows by its fields, as a key of the
 * catalogues' `journalSaid` section and its parameters (the screen words it in its language): a
 * note, a credit cancelled, a handpay, stakes placed, a casino system's transfer, a ticket's life,
 * a door, a start, a service sign-in or sign-out, a shoe's change, a service act, a card read, a
 * round settled or voided. Amounts are minor units, with
 * the currency the entry names (a note's, a ticket's, a cancel's…); an older entry of the table's
 * money that names none, the currency in force at its seq (`span`), and none known, null. Any
 * other entry, or one whose fields do not read as its kind's do, null: the log shows its payload
 * as recorded, and says so.
 */
export function entrySaid(type: string, p: Readonly<Record<string, unknown>>, span: () => string | null = () => null): JournalSaidPayload | null {
  const f = fieldsOf(p);
  const atStation = f.station === null ? null : type.startsWith('ticket.') ? ticketSaid(type, f, f.station) : stationSaid(type, p, f, f.station, span);
  // A decision names its station where it has one, and is said by its seat.
  return atStation ?? tableSaid(type, p, f);
}

/** An entry of a station's that moves or names its money (a note, a cancel, a handpay, stakes, a transfer, a drop count), or its door. */
function stationSaid(type: string, p: Readonly<Record<string, unknown>>, f: Fields, station: number, span: () => string | null): JournalSaidPayload | null {
  switch (type) {
    // Held, credited or given back: one sentence of the note; the log's type column says which.
    case 'bill.escrow':
    case 'bill.credit':
    case 'bill.return': {
      const denomination = safe(p.denomination);
      return denomination !== null && f.currency !== null ? said('note', { station, amount: denomination, currency: f.currency }) : null;
    }
    case 'credit.cancel':
    case 'handpay.request':
    case 'handpay.confirm':
    case 'aft.in':
    case 'aft.out':
    case 'bet.place': {
      const currency = tableMoney(p, f, span);
      return currency === null ? null : moneySaid(type, p, f, { station, currency });
    }
    case 'door.open':
    case 'door.close':
      return doorSaid(f, station);
    case 'cashbox.drop': {
      // What two people counted against what the acceptor credited since the last drop, in the count's currency.
      const [counted, credited, difference] = [safe(p.counted), safe(p.credited), safe(p.difference)];
      if (counted === null || credited === null || difference === null || f.currency === null) return null;
      return said('cashboxDrop', { station, counted, credited, difference, currency: f.currency });
    }
    default:
      return null;
  }
}

/**
 * The currency of an amount of the table's: the one the entry names; an older entry's, none
 * named, the one in force at its seq (`span`, ledger/currency-at.ts). Null where none is known,
 * or the screens have no money for it: said in the table's currency now, after a change, it read
 * as a sum of the new one.
 */
function tableMoney(p: Readonly<Record<string, unknown>>, f: Fields, span: () => string | null): string | null {
  if (p.currency !== undefined) return f.currency;
  const inForce = Currency.safeParse(span());
  return inForce.success ? inForce.data : null;
}

/** A credit cancelled, a handpay asked for or paid, a casino system's transfer, stakes: in `currency`. */
function moneySaid(type: string, p: Readonly<Record<string, unknown>>, f: Fields, at: { station: number; currency: string }): JournalSaidPayload | null {
  const { amount } = f;
  switch (type) {
    case 'credit.cancel':
      return amount !== null ? said('creditCancel', { ...at, amount, reason: f.text('reason') ?? '—' }) : null;
    case 'handpay.request':
      if (amount === null || (p.reason !== 'jackpot' && p.reason !== 'win-limit')) return null;
      return said(p.reason === 'jackpot' ? 'handpayJackpot' : 'handpayWinLimit', { ...at, amount });
    case 'handpay.confirm': {
      const attendant = f.text('attendant');
      return amount !== null && attendant !== null ? said('handpayConfirm', { ...at, amount, attendant, witness: f.text('witness') ?? '—' }) : null;
    }
    case 'aft.in':
    case 'aft.out':
      return amount !== null ? said('stationAmount', { ...at, amount }) : null;
    default: {
      const staked = stakesOf(p.bets);
      const round = f.text('roundId');
      return staked !== null && round !== null ? said('stakes', { ...at, round, amount: staked }) : null;
    }
  }
}

/** A bet's stakes together, minor units; null where a line's amount is no safe integer or the sum is past one. */
function stakesOf(bets: unknown): number | null {
  if (!Array.isArray(bets) || bets.length === 0) return null;
  let sum = 0;
  for (const b of bets) {
    const amount = typeof b === 'object' && b !== null && 'amount' in b ? safe(b.amount) : null;
    if (amount === null || amount <= 0) return null;
    sum += amount;
  }
  return Number.isSafeInteger(sum) ? sum : null;
}

/** A ticket at a station: its number's last digits; an amount with the ticket's currency; why it was voided or given back, by its code. */
function ticketSaid(type: string, f: Fields, station: number): JournalSaidPayload | null {
  const { ticket, amount, currency } = f;
  if (ticket === null) return null;
  switch (type) {
    case 'ticket.issue':
    case 'ticket.redeem.approved':
    case 'ticket.redeem.stacked':
      return amount !== null && currency !== null ? said('ticketAmount', { station, ticket, amount, currency }) : null;
    case 'ticket.printed':
    case 'ticket.redeem.request':
      return said('ticket', { station, ticket });
    case 'ticket.void': {
      const reason = f.text('reason');
      // The journal's English (`not printed: <the printer's reason>`) as the code the Tickets page words.
      return reason !== null ? said('ticketVoid', { station, ticket, ticketVoid: voidReason(reason) }) : null;
    }
    case 'ticket.redeem.returned': {
      const reason = f.text('reason');
      return reason !== null ? said('ticketReturned', { station, ticket, ticketReturn: reason }) : null;
    }
    default:
      return null;
  }
}

function doorSaid(f: Fields, station: number | null): JournalSaidPayload | null {
  const door = f.text('door');
  if (door === null) return null;
  return station === null ? said('doorAtTable', { door }) : said('doorAtStation', { station, door });
}

/** An entry of the table's own: a door, a start, a service session, a shoe, a validation id given. */
function tableSaid(type: string, p: Readonly<Record<string, unknown>>, f: Fields): JournalSaidPayload | null {
  switch (type) {
    case 'door.open':
    case 'door.close':
      return p.station === undefined ? doorSaid(f, null) : null;
    case 'power.reset': {
      const version = f.text('softwareVersion');
      if (version === null || typeof p.clean !== 'boolean') return null;
      return said(p.clean ? 'startedClean' : 'startedUnclean', { version });
    }
    case 'service.enter': {
      const [who, role] = [f.text('who'), f.text('role')];
      return who !== null && role !== null ? said('serviceEnter', { who, role }) : null;
    }
    case 'service.exit': {
      const [who, reason] = [f.text('who'), f.text('reason')];
      return who !== null && reason !== null ? said('serviceExit', { who, exitReason: reason }) : null;
    }
    case 'shoe.change':
      return p.event === 'loaded' ? said('shoeLoaded') : p.event === 'cut-card' ? said('shoeCutCard') : null;
    case 'ticket.machine-id': {
      // The validation id an authority gave the table (the upstream's, or the casino system's by 0x4C).
      const machineId = safe(p.machineId);
      if (machineId === null) return null;
      return p.authority === 'upstream' ? said('validationIdUpstream', { machineId }) : p.authority === 'sas' ? said('validationIdSas', { machineId }) : null;
    }
    case 'service.action':
      return serviceActSaid(f, p.say);
    default:
      return roundSaid(type, p, f);
  }
}

/** A card read (the card as the shoe wrote it, where it went by its code, the screen's words), a decision, a configuration change, a round settled or voided. */
function roundSaid(type: string, p: Readonly<Record<string, unknown>>, f: Fields): JournalSaidPayload | null {
  const round = f.text('roundId');
  switch (type) {
    case 'card.read': {
      const [card, to] = [f.text('card'), f.text('to')];
      if (card === null || to === null) return null;
      return round === null ? said('cardReadOutside', { card, cardPlace: to }) : said('cardRead', { card, cardPlace: to, round });
    }
    case 'round.settle': {
      const [game, profile] = [f.text('game'), f.text('profile')];
      return round !== null && game !== null && profile !== null ? said('roundSettled', { round, game, profile }) : null;
    }
    case 'round.decision': {
      const [seat, decision] = [safe(p.seat), f.text('action')];
      if (round === null || seat === null || decision === null) return null;
      return said(p.auto === true ? 'decisionAuto' : 'decision', { seat, decision, round });
    }
    case 'config.change':
      return configSaid(f);
    case 'round.void': {
      const reason = f.text('reason');
      if (round === null || reason === null) return null;
      return typeof p.uncorrectable === 'string'
        ? said('roundVoidWhy', { round, uncorrectable: p.uncorrectable, reason })
        : said('roundVoid', { round, reason });
    }
    default:
      return null;
  }
}

/**
 * A service act's record: who, the second person of a two-person act, the act by its code (the
 * screen words it, `service.journalAct.*`), and its detail: by its key (`say`, a `journalSaid.act*`
 * phrase, `actDetail` to the screen, which says it with the same parameters), else the English the
 * host wrote beside it, labelled as the journal's record (it is no sentence of the catalogues).
 */
function serviceActSaid(f: Fields, say: unknown): JournalSaidPayload | null {
  const [who, act, detail, second] = [f.text('who'), f.text('action'), f.text('detail'), f.text('confirmedBy')];
  if (who === null || act === null) return null;
  const people = { who, ...(second !== null ? { second } : {}), serviceAct: act };
  const two = second !== null ? 'Two' : '';
  const parsed = say === undefined ? null : journalSaid.safeParse(say);
  const phrase = parsed?.success && /^journalSaid\.act[A-Z]/.test(parsed.data.key) ? parsed.data : null;
  // Its own parameters first: none of them can stand for who did it or the act.
  if (phrase) return said(`serviceAct${two}Said`, { ...phrase.values, ...people, actDetail: phrase.key.slice('journalSaid.'.length) });
  return said(`serviceAct${two}${detail ? 'Detail' : ''}`, { ...people, ...(detail ? { detail } : {}) });
}

/** A configuration change: the setting by its key (the screen words it), who, the second person, the authorisation's reference. */
function configSaid(f: Fields): JournalSaidPayload | null {
  const [configKey, who, second, authorisation] = [f.text('key'), f.text('who'), f.text('witness'), f.text('authorisation')];
  if (configKey === null || who === null || authorisation === null) return null;
  return second === null ? said('configChange', { configKey, who, authorisation }) : said('configChangeTwo', { configKey, who, second, authorisation });
}
