import { TableShoe } from '../devices/shoe.js';
import type { HostMetrics } from '../metrics/host-metrics.js';
import { onShoeEvent } from '../tilts/tilt-sources.js';
import type { HostOptions } from './host-options.js';
import type { Opened } from './opened.js';
import type { TableRuntime } from './table-runtime.js';

/** The card-reading shoe (made, not started): its reads timed by the metrics, its faults raised as tilts. */
export function makeShoe(
  options: HostOptions,
  { config, log }: Pick<Opened, 'config' | 'log'>,
  { table, tilts, game }: Pick<TableRuntime, 'table' | 'tilts' | 'game'>,
  metrics: HostMetrics,
): TableShoe {
  return new TableShoe(config.shoe, table, log, {
    onCardHandled: (seconds, outcome) => metrics.cardHandled(seconds, outcome),
    onCardDrawn: (seconds) => metrics.cardDrawn(seconds),
    decks: table.game.decks,
    protocol: config.shoeProtocol,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.simShoeCutCardAt !== undefined ? { simCutCardAt: options.simShoeCutCardAt } : {}),
    ...(game.lastSequence !== undefined ? { lastSequence: game.lastSequence } : {}),
    onDeviceEvent: (e) => onShoeEvent(tilts, e, () => table.reads.cue()?.kind === 'shuffle'),
  });
}
