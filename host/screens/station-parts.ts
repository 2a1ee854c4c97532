import type { Language, StationOwnState, StationState } from '../../protocol/index.js';
import type { StationBettingView } from '../../engine/table/views.js';
import { encodeView } from './encode-view.js';
import { sameDeps } from './same-deps.js';
import type { SharedMessage } from './outbox.js';
import type { OwnPatches } from './own-patches.js';
import type { StationRecall } from './station-recall.js';
import type { SharedVersions } from './station-reads.js';
import {
  ownPartOf,
  sameTablePart,
  sharedOwnFields,
  shownBetting,
  stationFloorWord,
  stationOwnFields,
  stationTablePart,
  stationViewDeps,
  type SharedOwnFields,
  type StationOwnFields,
  type StationTablePart,
} from './station-view.js';
import type { ViewSources } from './table-view.js';

/**
 * What an idle station's last own part was made of (host/screens/station-reads.ts `isIdle`): its
 * own fields, the record of the shared fields it was made with, the floor's word on it then (read
 * from the floor, not kept: `stationFloorWord`), and the configuration's revision then. Its next
 * part, where only the shared fields it reads moved, is these own fields with the shared ones as
 * they stand (`StationParts.fromLast`).
 */
export interface IdleMade {
  readonly own: StationOwnFields;
  readonly shared: SharedOwnFields;
  readonly floorWord: readonly unknown[];
  readonly config: number;
}

/** A station's next own part made from its last one: its state, its JSON's length (its JSON is made when a snapshot needs it), its patch. */
export interface FromLast {
  readonly state: StationOwnState;
  readonly length: number;
  readonly patch: SharedMessage | null;
  readonly idle: IdleMade;
}

/** What the station parts read of the hub: the table and the floor, a station's recall and language, the pay table, the change count. */
export interface StationPartsSources {
  sources(): ViewSources;
  readonly recall: StationRecall;
  /** The hub's count of changes: the table's part is worked out once per change. */
  changes(): number;
  /** The JSON of objects the views share, encoded once while they live. */
  readonly encoded: WeakMap<object, string>;
  readonly patches: OwnPatches;
}

/**
 * The stations' own parts (issue 55): what each is read from (its deps, the floor's word on it),
 * built whole, or, for a station with nothing on the table whose own reads did not move, made from
 * its last one with the shared fields as they stand. At a stadium's results' end a thousand idle
 * stations' betting opens: each is then its last part's own fields and one record of shared fields
 * for all of them, not a projection, its floor's word asked again and its JSON joined.
 */
export class StationParts {
  /** Moved at each configuration change: a part made before it is built whole again (its seat, say, is the configuration's). */
  configRevision = 0;
  /** Moved at each change that is not the table's alone: each station's `floorWords` entry of an older one is asked again. */
  floorRevision = 0;
  private readonly floorWords = new Map<number, { revision: number; word: readonly unknown[] }>();
  private tablePartAt: { change: number; state: unknown; game: unknown; config: number; part: StationTablePart } | null = null;
  /** The shared fields' record of each table part and betting part: one object for every idle station offered the same. */
  private readonly sharedOf = new WeakMap<StationTablePart, WeakMap<object, SharedOwnFields>>();

  /** One copy of the pay table for every station build: the same array, so encoded once (another once a rule set switched the game). */
  private payTable: { of: unknown; table: StationState['payTable'] } | null = null;

  constructor(private readonly src: StationPartsSources) {}

  /** The running game's pay table (a rule set switched between shoes brings another game). */
  private payTableNow(): StationState['payTable'] {
    const game = this.src.sources().table.game;
    if (this.payTable?.of !== game) this.payTable = { of: game, table: [...game.rules.payTable] };
    return this.payTable.table;
  }

  /** What a station's own part is built from (host/screens/station-view.ts `stationViewDeps`: its key first). */
  deps(station: number, language: Language, shared: SharedVersions): unknown[] {
    const { recall } = this.src;
    const reads = { recall: recall.of(station), tickets: recall.ticketsOf(station), floorWord: this.floorWordOf(station) };
    return stationViewDeps(this.src.sources(), station, language, reads, shared);
  }

  /**
   * What a station's own part reads of the floor, asked again after every word from the floor (and
   * every other change not the table's alone) rather than at every change of the table: a bet or
   * a card moves no station's notices, cash-out or lock (the floor says when they move,
   * `StationGate.onChange`).
   */
  private floorWordOf(station: number): readonly unknown[] {
    const had = this.floorWords.get(station);
    if (had && had.revision === this.floorRevision) return had.word;
    const word = stationFloorWord(this.src.sources().floor, station);
    this.floorWords.set(station, { revision: this.floorRevision, word });
    return word;
  }

  /** A station's own part built whole; `idle`: it is idle now, and what its next part may be made from is kept. */
  build(station: number, language: Language, idle: boolean): { state: StationOwnState; idle: IdleMade | null } {
    const src = this.src.sources();
    const { own, betting } = stationOwnFields(src, station, language, this.src.recall.extrasOf(station));
    if (!idle) return { state: ownPartOf(own, sharedOwnFields(this.tablePart(), betting)), idle: null };
    const shared = this.sharedFields(this.tablePart(), betting);
    return { state: ownPartOf(own, shared), idle: { own, shared, floorWord: stationFloorWord(src.floor, station), config: this.configRevision } };
  }

  /** Whether a part made at `idle` may give the next one (no configuration change since). */
  current(idle: IdleMade): boolean {
    return idle.config === this.configRevision;
  }

  /**
   * An idle station's next own part, made from its last one (`had`, made of `idle`; its deps say
   * none of its own fields moved): its own fields as they were, the shared ones as they stand now
   * (the table's part, worked out once per change, and its betting part, every idle station's
   * object for its spots). `same` when that shows the same; null when the floor's word on it is not
   * the one it was made with (a fault raised at it moves the table's faults first, and the floor
   * says so after: a build whole reads the floor as it stands, and so must this). Nothing is
   * projected and its JSON is not joined: whether it moved, and by how many characters, are the
   * shared records' encodings (each encoded once), and its patch (`watched`: for the screens
   * showing it) is worked out once for every station made from the same two records. A screen is
   * sent the bytes of a build whole.
   */
  fromLast(view: string, station: number, had: { length: number; version: number }, idle: IdleMade, watched: boolean): FromLast | 'same' | null {
    const src = this.src.sources();
    const floorWord = stationFloorWord(src.floor, station);
    if (!sameDeps(floorWord, idle.floorWord)) return null;
    const betting: StationBettingView = src.table.reads.idleBetting(station);
    const shared = this.sharedFields(this.tablePart(), shownBetting(betting, floorWord[2] !== undefined));
    const before = this.encodedOf(idle.shared);
    const after = this.encodedOf(shared);
    if (before === after) return 'same';
    // Every shared field follows another (the part starts with its kind): a record's fields are its JSON less one brace.
    const length = had.length - before.length + after.length;
    const patch = watched ? this.src.patches.between(view, had.version + 1, idle.shared, shared, length + 64) : null;
    return { state: ownPartOf(idle.own, shared), length, patch, idle: { ...idle, shared } };
  }

  /** The table's part of every station's own part, worked out once per change and kept as the same object while it shows the same. */
  private tablePart(): StationTablePart {
    const src = this.src.sources();
    const [state, game, change, had] = [src.table.state, src.table.game, this.src.changes(), this.tablePartAt];
    if (had && had.change === change && had.state === state && had.game === game && had.config === this.configRevision) return had.part;
    const now = stationTablePart(src, this.payTableNow());
    const part = had && sameTablePart(had.part, now) ? had.part : now;
    this.tablePartAt = { change, state, game, config: this.configRevision, part };
    return part;
  }

  private sharedFields(table: StationTablePart, betting: StationBettingView): SharedOwnFields {
    let of = this.sharedOf.get(table);
    if (!of) this.sharedOf.set(table, (of = new WeakMap()));
    let shared = of.get(betting);
    if (!shared) of.set(betting, (shared = sharedOwnFields(table, betting)));
    return shared;
  }

  /** A record's JSON, encoded once while it lives (its parts too). */
  private encodedOf(o: object): string {
    let json = this.src.encoded.get(o);
    if (json === undefined) {
      json = encodeView(o, this.src.encoded);
      this.src.encoded.set(o, json);
    }
    return json;
  }
}
