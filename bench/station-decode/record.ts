// The frames one remote station is sent over a played shoe, recorded once for the station-decode
// bench to replay: a baccarat table of a few remote stations (host/testing/table-kit.ts: the real
// runtime, ledger and view hub, timers run by hand), the recorded station subscribed through an
// outbox as its screen is, every station betting each coup. What it gets is what a stadium
// station gets: the public round and panel (whole, then patches), its own part (a snapshot, then
// patches at its bets, the close, the results). Or, given a file of `STADIUM_DUMP`'s form (a
// stamp and a frame a line), the frames a station of a stadium bench run received.
import { readFileSync } from 'node:fs';
import { parseCard } from '../../engine/cards/card.js';
import { shuffledShoe } from '../../hardware/shoe/simulator.js';
import { Outbox } from '../../host/screens/outbox.js';
import { credit, testTable } from '../../host/testing/table-kit.js';
import { REMOTE_STATION_BASE, stationView, type Spot, type ViewName } from '../../protocol/index.js';

export interface Recorded {
  view: ViewName;
  frames: string[];
}

const SPOTS: Spot[] = [{ bet: 'banker' }, { bet: 'player' }, { bet: 'tie' }, { bet: 'playerPair' }];

/** `coups` coups of baccarat as station 101 sees them, `stations` remote stations betting (cards from a seeded shoe). */
export function recordCoups(coups: number, stations = 8): Recorded {
  const t = testTable({ game: 'baccarat', config: { remoteStations: stations } });
  try {
    for (let i = 1; i <= stations; i++) credit(t.ledger, REMOTE_STATION_BASE + i, 50_000 * coups);
    const view = stationView(REMOTE_STATION_BASE + 1);
    const frames: string[] = [];
    const outbox = new Outbox({
      write: (message, written) => {
        frames.push(message.text);
        written();
      },
    });
    t.hub.subscribe(view, `screen:${view}`, { deliver: (slot, update) => outbox.latest(slot, update) });
    let seed = 1;
    let shoe = shuffledShoe(t.table.game.decks, seed);
    let pos = 0;
    let settled = 0;
    for (let step = 0; settled < coups; step++) {
      if (step > coups * 40) throw new Error(`${settled} of ${coups} coups settled in ${step} steps`);
      const v = t.table.reads.view();
      const cue = t.table.reads.cue();
      if (v.phase === 'betting' && !t.table.reads.hasBets(REMOTE_STATION_BASE + 1)) {
        for (let i = 1; i <= stations; i++) {
          const r = t.table.commands.placeBet(REMOTE_STATION_BASE + i, SPOTS[(i + step) % SPOTS.length] as Spot, 10_000 * (1 + (i % 3)));
          if (!r.ok) throw new Error(`station ${REMOTE_STATION_BASE + i}'s bet refused: ${JSON.stringify(r)}`);
        }
      } else if (cue?.kind === 'shuffle' || (cue?.kind === 'card' && pos >= shoe.length)) {
        shoe = shuffledShoe(t.table.game.decks, ++seed);
        pos = 0;
        t.table.shoe.onNewShoe();
      } else if (cue?.kind === 'card') {
        t.table.shoe.onCard(parseCard(shoe[pos++] ?? ''));
        if (t.table.reads.view().phase === 'results') settled++;
        if (pos === shoe.length - 16) t.table.shoe.onCutCard();
      } else if (v.endsAt !== null) t.clock.runOut(v.endsAt);
      else t.clock.advance(1_000);
    }
    return { view, frames };
  } finally {
    t.close();
  }
}

/** The frames of a `STADIUM_DUMP` file (`<stamp> <frame>` a line), received by `view`. */
export function readDump(file: string, view: ViewName): Recorded {
  const frames = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => l.slice(l.indexOf(' ') + 1));
  return { view, frames };
}
