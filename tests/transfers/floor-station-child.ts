// One scripted station of the three-table soak (floor-soak.ts), a process of its own so the soak
// can SIGKILL it: it follows all three tables (HeadlessStation, enrolled at each, over the pinned
// TLS through the soak's proxies) and, from a seed, moves credit from its home table to another,
// bets there at its minimum when betting is open, and leaves (its credit there goes home).
import { readFileSync } from 'node:fs';
import type { Agent } from 'node:https';
import { Rng } from '../../engine/random/seeded-rng.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import { HeadlessStation } from '../../host/station-agent/headless-station.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import type { CommandBody, StationState } from '../../protocol/index.js';

const arg = JSON.parse(process.env.FLOOR_STATION ?? '{}') as { station: number; home: string; tables: { tableId: string; enrolments: string }[]; seed: number };
const rng = Rng.fromSeed(arg.seed);
const counts = { moves: 0, bets: 0, leaves: 0, ok: 0, refused: 0 };

const links = arg.tables.map((t) => {
  const files = JSON.parse(readFileSync(t.enrolments, 'utf8')) as EnrolmentFile[];
  const enrolment = files.find((f) => f.station === arg.station);
  if (!enrolment) throw new Error(`station ${arg.station} not enrolled at ${t.tableId}`);
  const agent: Agent = pinnedAgent(enrolment);
  let station: HeadlessStation | null = null;
  const pending = new Set<string>();
  const connect = () => {
    const s = new HeadlessStation(enrolment, agent, {
      message: (m) => {
        if (m.type === 'ack' && pending.delete(m.ref)) counts.ok++;
        else if (m.type === 'error' && m.ref !== undefined && pending.delete(m.ref)) counts.refused++;
      },
      closed: () => {
        if (station === s) station = null;
        setTimeout(connect, 200 + rng.below(800));
      },
    });
    station = s;
    s.connect().catch(() => undefined);
  };
  connect();
  return {
    tableId: t.tableId,
    state: (): StationState | null => {
      const v = station?.latest();
      return v && v.kind === 'station' ? v : null;
    },
    send: (c: CommandBody) => {
      const s = station;
      if (s) pending.add(s.command(c));
    },
  };
});

const act = () => {
  const home = links.find((l) => l.tableId === arg.home);
  const away = links.filter((l) => l.tableId !== arg.home);
  const r = rng.below(100);
  const homeState = home?.state();
  if (r < 35 && home && homeState && homeState.credit > 0) {
    const to = away[rng.below(away.length)];
    if (to) {
      counts.moves++;
      home.send({ name: 'move-credit', to: to.tableId, amount: 1 + rng.below(Math.max(1, Math.floor(homeState.credit / 2))) });
    }
    return;
  }
  const at = away[rng.below(away.length)];
  const s = at?.state();
  if (!at || !s) return;
  if (r < 75 && s.betting.open && s.credit > 0) {
    const spot = s.betting.spots.find((p) => !('seat' in p) && p.min <= s.credit);
    if (spot && spot.bet !== 'behind') {
      counts.bets++;
      at.send({ name: 'place-bet', spot: { bet: spot.bet }, amount: spot.min });
    }
    return;
  }
  if (s.credit > 0 && s.betting.bets.length === 0) {
    counts.leaves++;
    at.send({ name: 'leave-table' });
  }
};
setInterval(act, 150);
setInterval(() => process.stdout.write(`${JSON.stringify(counts)}\n`), 500);
