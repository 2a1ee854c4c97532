// One scripted station of the three-table soak (floor-soak.ts), a process of its own so the soak
// can SIGKILL it: it follows all three tables (HeadlessStation, enrolled at each, over the pinned
// TLS through the soak's proxies) and, from a seed, moves credit from its home table to another,
// bets at any of the three (its home too) at a spot's minimum when betting is open — at blackjack
// behind a seated player's seat, the only bet a remote station has there (Macau Art. 20) — and
// leaves a table away from home (its credit there goes home).
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
/** The bets this run asked for, per table (the ledgers say which played). */
const betsAt: Record<string, number> = {};

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
  if (r < 75) {
    // A bet at any of the three tables, home included.
    const at = links[rng.below(links.length)];
    const s = at?.state();
    if (!at || !s || !s.betting.open || s.credit <= 0 || s.betting.bets.length > 0) return;
    // The station's own spots (baccarat, war), or behind a seat (blackjack: a seat whose player does not bet leaves it unplayed, its chips credit).
    const spots = s.betting.spots.filter((p) => p.min <= s.credit && (!('seat' in p) || p.bet === 'behind'));
    // None within the credit (or none offered: blackjack behind a seat with three bettors already): no bet this time.
    if (spots.length === 0) return;
    const spot = spots[rng.below(spots.length)];
    if (!spot) return;
    counts.bets++;
    betsAt[at.tableId] = (betsAt[at.tableId] ?? 0) + 1;
    at.send({ name: 'place-bet', spot: 'seat' in spot ? { bet: 'behind', seat: spot.seat } : { bet: spot.bet }, amount: spot.min });
    return;
  }
  const at = away[rng.below(away.length)];
  const s = at?.state();
  if (!at || !s) return;
  if (s.credit > 0 && s.betting.bets.length === 0) {
    counts.leaves++;
    at.send({ name: 'leave-table' });
  }
};
setInterval(act, 150);
setInterval(() => process.stdout.write(`${JSON.stringify({ ...counts, betsAt })}\n`), 500);
