import type { Outcome } from '../../engine/table/game.js';
import type { TableInput } from '../../engine/table/inputs.js';
import type { FaultGates, TableParams, TableState } from '../../engine/table/state.js';
import type { NewEntry } from '../../ledger/index.js';
import type { Countdowns, GameFacts, LiveTable, NamedCommands, ShoeFeed, StationCommand, SupervisorCommands, TableReads } from './live-table.js';

/**
 * An object whose every method is the same method of whatever `current()` gives at the time of
 * the call: a part of the table (its reads, its shoe's feed) that outlives the game behind it. A
 * property assigned through it is assigned on the running part (the benchmarks wrap
 * `shoe.onCard` so: assigned on the empty stand-in, the wrapper was never called and the stadium
 * bench waited for cards it never counted); a game switched in later comes with its own part.
 */
function forward<T extends object>(current: () => T): T {
  // Each method's forwarder is made once while the part and its method stand, not at every read:
  // the host reads these at every change, and a closure made anew is a new function to V8,
  // optimised again and again over a long run (issue 52). Another part (a game switched in) or a
  // method assigned anew gets a forwarder of its own; none of the part before is kept.
  let part: T | null = null;
  const forwarders = new Map<PropertyKey, { method: unknown; call: (...args: unknown[]) => unknown }>();
  return new Proxy({} as T, {
    get(_target, key) {
      const now = current();
      const v: unknown = Reflect.get(now, key);
      if (typeof v !== 'function') return v;
      if (now !== part) {
        part = now;
        forwarders.clear();
      }
      const kept = forwarders.get(key);
      if (kept?.method === v) return kept.call;
      const call = (...args: unknown[]): unknown => Reflect.apply(v as (...a: unknown[]) => unknown, now, args);
      forwarders.set(key, { method: v, call });
      return call;
    },
    set(_target, key, value) {
      return Reflect.set(current(), key, value);
    },
  });
}

/**
 * The table the rest of the host holds (issue 49 item 6): the running game's runtime behind it,
 * which a rule set switched between shoes replaces (`switchTo`) with the runtime of the game under
 * the new rules. Everything that was given the table (the screens, the shoe, service mode, the
 * floor) reads and feeds the new game from then on; its listeners stay and are told at once.
 */
export class SwitchingTable implements LiveTable {
  private inner: LiveTable;
  private off: () => void;
  private readonly listeners = new Set<() => void>();
  readonly shoe: ShoeFeed = forward(() => this.inner.shoe);
  readonly supervisor: SupervisorCommands = forward(() => this.inner.supervisor);
  readonly commands: NamedCommands = forward(() => this.inner.commands);
  readonly countdowns: Countdowns = forward(() => this.inner.countdowns);
  readonly reads: TableReads = forward(() => this.inner.reads);

  constructor(first: LiveTable) {
    this.inner = first;
    this.off = first.onChange(() => this.changed());
  }

  get state(): TableState<unknown, unknown> {
    return this.inner.state;
  }

  get game(): GameFacts {
    return this.inner.game;
  }

  input(input: TableInput, also?: readonly NewEntry[]): Outcome {
    return this.inner.input(input, also);
  }

  submit(command: StationCommand): Outcome | Promise<Outcome> {
    return this.inner.submit(command);
  }

  setFaults(gates: FaultGates): void {
    this.inner.setFaults(gates);
  }

  configure(params: TableParams): void {
    this.inner.configure(params);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    this.inner.stop();
  }

  /**
   * Stops the running game's runtime: it hears nothing more of the ledger, and what it held for
   * a group commit is refused (between shoes there is none). `build` then makes the next one,
   * which the table is from then on. The listeners are told.
   *
   * Stopped first: the next game's build journals (held stakes returned, its `open`), which the
   * running one must not hear as its own table's. A build that throws (the journal refusing
   * those writes, a profile that does not open) leaves the stopped one, which takes no input: the
   * journal already holds the switch, so the old game may not play on, and the next start builds
   * the journalled one (docs/table-host.md). The throw goes to the switch's caller.
   */
  switchTo(build: () => LiveTable): void {
    this.off();
    this.inner.stop();
    try {
      this.inner = build();
    } finally {
      this.off = this.inner.onChange(() => this.changed());
      this.changed();
    }
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}
