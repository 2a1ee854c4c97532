// The seat-change kill test's table host (seat-change-kill.test.ts), a process of its own so the
// test can SIGKILL it: the real host over the test's data folder with its configuration (a seating),
// the test's clock at the hour the test reserved for it, and each command committed alone. It plays
// the steps the test names (journalled, each committed before the next), prints what it reached (its `ready` line), and waits
// to be killed: nothing of a clean stop is ever run.
import { startAgain } from './restarted-host.js';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { burnShoeStart, cards, close } from '../../host/testing/streak-rounds.js';
import { credit, submitted } from '../../host/testing/table-kit.js';
import { DecisionAction, type BetId } from '../../protocol/index.js';

/** The child's orders: `credit:<station>:<amount>`, `burn`, `place:<station>:<bet>:<amount>`, `close`, `cards:<codes>`, `stand:<station>`, `decide:<station>:<action>`. */
export interface SeatKillChild {
  dataDir: string;
  game: 'blackjack' | 'baccarat' | 'war';
  seats: [number, number][];
  hour: number;
  steps: string[];
}

const arg = JSON.parse(process.env.SEAT_KILL_CHILD ?? '{}') as SeatKillChild;
const stations = arg.seats.map(([station, seat]) => ({ station, seat, billAcceptor: 'sim' as const }));
const t = await startAgain(arg.dataDir, TableConfig.parse({ ...simulatedTableConfig(arg.game), stations }), arg.hour);
const refused: string[] = [];
const submit = (station: number, command: Parameters<typeof t.hub.commands.submit>[2]) => {
  const r = submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), command));
  if (!r.ok) refused.push(`${command.name} from station ${station}`);
};
for (const step of arg.steps) {
  const [what, a = '', b = '', c = ''] = step.split(':');
  if (what === 'credit') credit(t.ledger, Number(a), Number(b));
  else if (what === 'burn') burnShoeStart(t);
  else if (what === 'place') submit(Number(a), { name: 'place-bet', spot: { bet: b as BetId }, amount: Number(c) });
  else if (what === 'close') close(t);
  else if (what === 'cards') cards(t, a);
  else if (what === 'stand') submit(Number(a), { name: 'decide', action: 'stand' });
  else if (what === 'decide') submit(Number(a), { name: 'decide', action: DecisionAction.parse(b) });
  else throw new Error(`unknown step ${step}`);
}
// What the test checks before it kills: how far the table got, and that no step was refused.
console.log(JSON.stringify({ phase: t.table.reads.view().phase, seatsNext: t.running.table.state.seatsNext ?? null, refused }));
