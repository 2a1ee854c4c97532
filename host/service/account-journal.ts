import { canonicalJson, entriesOfTypes, PAYLOADS, type EntryBody, type Ledger, type Payload } from '../../ledger/index.js';

/** A `service.account` entry's payload: an account added, adopted, or changed by a supervisor. */
export type AccountEntry = Payload<'service.account'>;
export type DeniedReason = Payload<'service.denied'>['reason'];

/**
 * Where the accounts' entries are written and read: the ledger, through the host's own connection
 * or, on the command line, through the tool's (ledger/ledger.ts chains a second writer's entries
 * from the head the database holds).
 */
export interface AccountJournal {
  /** Appends the entries in one transaction; their seqs, in order. */
  record(entries: readonly AccountEntry[]): number[];
  /** Journals a refused PIN check (`service.denied`). */
  denied(staff: string, reason: DeniedReason, lockedUntil?: string): void;
  /** The journal's last seq (as this connection last saw it: never beyond the database's). */
  head(): number;
  /** The `service.account` and `service.denied` entries after `seq`, in order. */
  after(seq: number): Iterable<JournalledEntry>;
}

export type JournalledEntry =
  { seq: number; type: 'service.account'; payload: AccountEntry } | { seq: number; type: 'service.denied'; payload: Payload<'service.denied'> };

export function ledgerAccountJournal(ledger: Ledger): AccountJournal {
  return {
    record: (entries) => ledger.appendMany(entries.map((payload) => ({ type: 'service.account', payload }))).map((r) => r.entry.seq),
    denied: (staff, reason, lockedUntil) => {
      ledger.append({ type: 'service.denied', payload: { staff, reason, ...(lockedUntil ? { lockedUntil } : {}) } });
    },
    head: () => ledger.headOf().seq,
    *after(seq) {
      for (const e of entriesOfTypes(ledger, ['service.account', 'service.denied'], seq + 1)) {
        const payload = (JSON.parse(e.body) as EntryBody).payload;
        if (e.type === 'service.account') yield { seq: e.seq, type: 'service.account', payload: PAYLOADS['service.account'].parse(payload) };
        else yield { seq: e.seq, type: 'service.denied', payload: PAYLOADS['service.denied'].parse(payload) };
      }
    },
  };
}

/** An account as the journal says it is. */
export interface JournalledAccount {
  staff: string;
  name: string;
  role: AccountEntry['role'];
  /** The digest of its PIN hash; null when only entries of earlier versions name it. */
  pin: string | null;
  disabled: boolean;
  /** The latest lock its refusals journalled since its last unlock or new PIN (past or not). */
  lockedUntil: string | null;
}

/**
 * The accounts as the journal's `service.account` entries leave them (the refusals add their locks),
 * folded once and then kept up to date from the entries after the last read: the command line
 * journals from another process, so each question reads what was appended since.
 */
export class JournalledAccounts {
  private readonly accounts = new Map<string, JournalledAccount>();
  /** Every account entry's canonical payload and seq, for finding a change its maker journalled. */
  private readonly entries: { seq: number; staff: string; text: string }[] = [];
  private seq = 0;
  private digests = false;

  constructor(private readonly journal: AccountJournal) {}

  /** Reads the entries appended since the last call. */
  refresh(): this {
    for (const e of this.journal.after(this.seq)) {
      this.seq = e.seq;
      if (e.type === 'service.denied') {
        const a = this.accounts.get(e.payload.staff);
        const until = e.payload.lockedUntil;
        if (a && e.payload.reason === 'locked' && until && (a.lockedUntil === null || Date.parse(until) > Date.parse(a.lockedUntil))) a.lockedUntil = until;
        continue;
      }
      this.apply(e.payload);
      this.entries.push({ seq: e.seq, staff: e.payload.staff, text: canonicalJson(e.payload) });
    }
    return this;
  }

  /**
   * Whether the accounts are journalled in full: some entry carries a PIN digest (an adoption, or
   * an account added since). Until then nothing can be checked against the journal.
   */
  get adopted(): boolean {
    return this.digests;
  }

  /** Whether any account entry at all exists (of this version or an earlier one). */
  get knowsAccounts(): boolean {
    return this.accounts.size > 0;
  }

  get(staff: string): JournalledAccount | undefined {
    return this.accounts.get(staff);
  }

  all(): JournalledAccount[] {
    return [...this.accounts.values()];
  }

  /** The seq of an entry for `staff` after `afterSeq` whose payload is `text` (canonical JSON), if journalled. */
  findEntry(staff: string, text: string, afterSeq: number): number | undefined {
    return this.entries.find((e) => e.seq > afterSeq && e.staff === staff && e.text === text)?.seq;
  }

  private apply(p: AccountEntry): void {
    if (p.pin !== undefined) this.digests = true;
    const known = this.accounts.get(p.staff);
    if (p.action === undefined || p.action === 'adopt' || !known) {
      // An add, an adoption, or an action on an account only an earlier version's add named.
      this.accounts.set(p.staff, {
        staff: p.staff,
        name: p.name,
        role: p.role,
        pin: p.pin ?? known?.pin ?? null,
        disabled: p.action === 'disable' ? true : (p.disabled ?? false),
        // An adoption keeps the locks journalled before it; an add is an account anew.
        lockedUntil: p.action === 'adopt' ? (known?.lockedUntil ?? null) : null,
      });
      return;
    }
    known.name = p.name;
    switch (p.action) {
      case 'disable':
        known.disabled = true;
        break;
      case 'enable':
        known.disabled = false;
        break;
      case 'role':
        known.role = p.role;
        break;
      case 'reset-pin':
        if (p.pin !== undefined) known.pin = p.pin;
        known.lockedUntil = null;
        break;
      case 'unlock':
        known.lockedUntil = null;
        break;
    }
  }
}
