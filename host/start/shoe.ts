import type { GameDefinition } from '../../engine/table/game.js';
import { SIM_CUT_CARD_FROM_END } from '../../hardware/shoe/simulator.js';
import { TableShoe } from '../devices/shoe.js';
import type { HostMetrics } from '../metrics/host-metrics.js';
import { openTableGame } from '../table/table-game.js';
import { shoeTiltSource } from '../tilts/tilt-sources.js';
import type { HostOptions } from './host-options.js';
import type { Opened } from './opened.js';
import type { TableRuntime } from './table-runtime.js';
import { SampledLog } from '../logging/sampled-log.js';

/**
 * Where a simulated shoe's cut card comes out (cards dealt before it), or undefined for the
 * simulator's own place (16 from the end): further from the end where the game's longest coup at
 * this table needs more (war: every hand at war), so that a simulated dealer never runs out inside
 * its last coup. `hands`: the seated stations, and the remote stations' box when there are remote
 * stations. Never before the first card: a shoe smaller than one coup (war of one deck and many
 * seats) still runs out. A live dealer places the cut; what a live table does when its shoe runs
 * out is docs/rules/war.md's.
 */
export function simulatedCutCardAt<S, R>(game: Pick<GameDefinition<S, R>, 'decks' | 'shoe'>, hands: number): number | undefined {
  const longest = game.shoe.longestCoup?.(hands);
  if (longest === undefined || longest <= SIM_CUT_CARD_FROM_END) return undefined;
  return Math.max(1, game.decks * 52 - longest);
}

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
    ...cutCardOption(
      options.simShoeCutCardAt ??
        (config.shoe === 'sim' ? openTableGame(config, (g) => simulatedCutCardAt(g, config.stations.length + (config.remoteStations > 0 ? 1 : 0))) : undefined),
    ),
    ...(game.lastSequence !== undefined ? { lastSequence: game.lastSequence } : {}),
    onDeviceEvent: shoeTiltSource(tilts, () => table.reads.cue()?.kind === 'shuffle'),
    sampledLog: new SampledLog(log),
  });
}

function cutCardOption(at: number | undefined): { simCutCardAt?: number } {
  return at !== undefined ? { simCutCardAt: at } : {};
}
