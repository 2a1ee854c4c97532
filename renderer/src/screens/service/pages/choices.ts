import type { RecallRound, ServiceAction, ServicePage, Uncorrectable } from '../../../../../protocol/index.js';
import type { ConfigDraft } from '../config-editor.js';
import type { EventGroup } from './event-groups.js';

/** A button of a page: its test id, its words, and what pressing it does. */
export interface PageButton {
  id: string;
  label: string;
  press: () => void;
  active?: boolean;
}

/** The screen's own choices on the pages (selected device, filters) — never sent until used. */
export interface PageChoices {
  device: string;
  eventSeverity: 'all' | 'info' | 'warning' | 'critical';
  /** Type groups shown (none: every type). */
  eventGroups: EventGroup[];
  /** A time span back from now, or `custom` between `eventFrom` and `eventTo` (local times typed on the pad). */
  eventSince: 'all' | 'hour' | 'shift' | 'day' | 'week' | 'custom';
  eventFrom: number | null;
  eventTo: number | null;
  /** The type groups' picker is open over the log. */
  eventPicker: boolean;
  recallStation: number | null;
  clearScope: string;
  /** Why a void is the last resort: no correction the text orders could put the round right. */
  voidReason: Uncorrectable;
  /** The configuration value being edited, before it is sent for authorisation. */
  edit: ConfigDraft | null;
  /** A rule option being changed: which (its row among the profile's options) and the value chosen (JSON; null: none yet). */
  ruleEdit: { index: number; value: string | null } | null;
  /** The meters shown: `table`, `station:N` or every scope. */
  meterScope: string;
}

export const INITIAL_CHOICES: PageChoices = {
  device: 'BA-1',
  eventSeverity: 'all',
  eventGroups: [],
  eventSince: 'all',
  eventFrom: null,
  eventTo: null,
  eventPicker: false,
  recallStation: null,
  clearScope: 'table',
  voidReason: 'card-unidentified',
  edit: null,
  ruleEdit: null,
  meterScope: 'table',
};

/** A value asked for on a pad over the page: digits (an amount, seconds) or a reference (letters, digits, `- / .`). */
export interface AskRequest {
  title: string;
  label: string;
  /** `card`: a rank and a suit (`AS`, `TD`). */
  kind: 'digits' | 'reference' | 'card';
  then: (value: string) => void;
}

export interface PageActions {
  act(action: ServiceAction): void;
  open(page: ServicePage['page'], extra?: { offset?: number; station?: number; filter?: Record<string, unknown>; device?: string }): void;
  /** Saves an export of the signed-in session (its token is added). */
  download(path: string): void;
  /** Shows an export as a page of its own (the printable report), to print with the browser. */
  view(path: string): void;
  /** Plays a round of game recall card by card. */
  replay(round: RecallRound): void;
  /** Asks for a file (a peer table's enrolment file, from a USB key), then runs `then` with its text. */
  upload(then: (text: string) => void): void;
  /** Asks for a value on a pad over the page, then runs the request's `then` with it. */
  ask(request: AskRequest): void;
  choose(update: Partial<PageChoices>): void;
}
