import type { Logger } from 'pino';
import type WebSocket from 'ws';
import { decodeHostMessage, stationView, ViewComposer, type HostMessage } from '../../protocol/index.js';
import { DEVICE_LINK_TIMING, keepAlive, sendBounded } from '../limits/bounded-socket.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import { proveStation } from '../stadium/station-proof.js';

/**
 * How much one table may send one screen link in a second before the agent takes it for a flood
 * and drops the link (it is dialled again when the screen reconnects): far over what a table
 * sends a station (a round's patches, a few a second; a resync's whole parts), far under what
 * would starve the other tables' links in the same process.
 */
export const FLOOD = { messages: 400, bytes: 4 * 1024 * 1024, windowMs: 1000 } as const;

/**
 * The bytes the agent may hold unsent for the station's screen before its link is cut: a second
 * of the most a table may send it (FLOOD), on top of what the loopback socket itself holds. A
 * screen that reads takes what it is sent at once; a frozen one kept everything the table said.
 */
export const SCREEN_SEND_BUFFER = FLOOD.bytes;

/**
 * How much the station's screen may say to one table in a second before the agent takes it for a
 * flood and drops its link: a player presses a few times a second, and the host itself answers
 * past 40 messages at once, then 20 a second, with `rate-limited` and closes past twice that
 * (docs/screen-protocol.md, "Incoming rate limit"), so this only bounds what the agent holds for
 * a screen (or a local process on the screen's port) that says far more, whatever the table does.
 */
export const SCREEN_FLOOD = { messages: 100, bytes: 512 * 1024, windowMs: 1000 } as const;

/** The screen's messages held for the table until an edge has had the station's proof: a screen's hello and first commands. */
export const EARLY_MESSAGES = 32;

/** The bytes the agent may hold unsent for the table before its link is cut: a second of the most the screen may say (SCREEN_FLOOD). */
export const TABLE_SEND_BUFFER = SCREEN_FLOOD.bytes;

type Flood = { messages: number; bytes: number; windowMs: number };

/**
 * A count of messages and bytes over a window: whether one more makes more than `limit` this window.
 * On the monotonic clock: a wall clock stepped back would hold one window open for the step, and
 * cut a link that keeps to its limit.
 */
function floodWindow(limit: Flood): (bytes: number) => boolean {
  let window = { start: performance.now(), messages: 0, bytes: 0 };
  return (bytes) => {
    const now = performance.now();
    if (now - window.start >= limit.windowMs) window = { start: now, messages: 0, bytes: 0 };
    window.messages++;
    window.bytes += bytes;
    return window.messages > limit.messages || window.bytes > limit.bytes;
  };
}

export interface TableRelayOptions {
  enrolment: EnrolmentFile;
  log: Logger;
  /** Opens a link to the table's `/ws` over the pinned TLS settings. */
  connect: () => WebSocket;
  flood?: Flood;
  /** The send buffer cap of the screen's link (default SCREEN_SEND_BUFFER; tests: smaller). */
  maxBufferedBytes?: number;
  /** How much the screen may say to the table (default SCREEN_FLOOD). */
  screenFlood?: Flood;
  /** The send buffer cap of the table's link (default TABLE_SEND_BUFFER; tests: smaller). */
  upBufferedBytes?: number;
  /** The table's link is pinged this often (default the device link's, 15 s; tests: shorter). */
  pingMs?: number;
}

/**
 * One table's link behind one screen socket of the station's machine. The agent says the
 * station's credential in the browser's place (the secret never reaches the browser) and passes
 * the browser's messages as they are. What the table says is taken as the word of that table only
 * about this station there: a welcome, a snapshot or a patch for any other view, a station state
 * of another station number or a view of another kind (a table display's, which names a table)
 * is a lie, and the link is dropped; so is a flood. Parts of the view pass only when they apply
 * to the relay's own copy (a patch that does not follow is asked for whole, not passed on), so the
 * screen behind is never handed what it cannot apply. The screen learns which table a link is from
 * the agent's enrolments (`StationTables`), never from the table.
 */
export function relayTable(local: WebSocket, o: TableRelayOptions, hello: { id: string; protocol: number }): void {
  const view = stationView(o.enrolment.station);
  const maxBuffered = o.maxBufferedBytes ?? SCREEN_SEND_BUFFER;
  const log = o.log.child({ table: o.enrolment.tableId, station: o.enrolment.station });
  const screenLink = { name: "station's screen link", log };
  const up = o.connect();
  const toTable = screenToTable(local, up, o, log, hello);
  const { station, secret, tableId } = o.enrolment;
  const dropTable = (why: string, detail: object) => {
    o.log.warn({ table: o.enrolment.tableId, station: o.enrolment.station, ...detail }, why);
    up.terminate();
    if (local.readyState === local.OPEN) local.close(1011, 'table link refused');
  };
  const flooding = floodWindow(o.flood ?? FLOOD);
  // The relay holds the station's view as the screen does: each patch from the table is applied
  // to its copy first. One that does not follow it (lost on the LAN's way, or altered) is not
  // passed on; the relay asks the table for the part whole in the screen's place.
  let asked = 0;
  const copy = new ViewComposer(view, {
    resync: (parts) => toTable.send(JSON.stringify({ type: 'resync', id: `relay-${++asked}`, view, parts })),
  });
  up.on('message', (data) => {
    const text = String(data);
    if (flooding(Buffer.byteLength(text))) return dropTable('the table flooded the station’s screen link: dropped', { limit: o.flood ?? FLOOD });
    const d = decodeHostMessage(text);
    if (!d.ok) return o.log.warn({ table: o.enrolment.tableId, detail: d.error.detail }, 'the table sent a message that fails its schema: not passed on');
    const lie = lieOf(d.message, view, o.enrolment.station);
    if (lie) return dropTable('the table spoke for a view that is not this station’s: link dropped', { lie });
    const m = d.message;
    if (m.type === 'challenge') {
      if (toTable.proved()) return dropTable('the table asked twice for the station’s proof: link dropped', {});
      const proof = proveStation(secret, tableId, station, m.nonce);
      return toTable.prove(JSON.stringify({ type: 'hello-station', id: hello.id, protocol: hello.protocol, station, nonce: m.nonce, proof }));
    }
    const part = m.type === 'snapshot' || m.type === 'public' || m.type === 'patch' || m.type === 'public-patch' || m.type === 'recall';
    if (part && !copy.apply(m)) return;
    // A patch may rewrite the station number: what it made is checked as a snapshot is.
    const held = copy.latest();
    if (m.type === 'patch' && held && (held.kind !== 'station' || held.station !== o.enrolment.station))
      return dropTable('the table patched this station’s view into another’s: link dropped', { station: held.kind === 'station' ? held.station : held.kind });
    // Past the cap the screen's link is cut, and the table's with it (local's close): the screen dials again.
    sendBounded(local, text, maxBuffered, screenLink);
  });
  up.on('close', () => local.readyState === local.OPEN && local.close(1012, 'table link closed'));
  up.on('error', (err) => o.log.warn({ table: o.enrolment.tableId, err: err.message }, 'screen link to the table failed'));
  local.on('close', () => up.close());
}

/**
 * The screen's side of a table link: what the screen says goes to the table as it is, held (a
 * few dozen messages at most) until the link is open and, at an edge, the station's proof said;
 * the screen is held to a player's rate (SCREEN_FLOOD) and what waits unsent for the table is
 * capped (TABLE_SEND_BUFFER), so neither a flooding screen nor a table that stopped reading grows
 * the agent. The table's link is pinged: one that answers no ping (wedged, its kernel still taking
 * bytes) is cut, and the screen's link with it, so the screen dials again rather than showing a
 * stale view. Past any bound the screen's link is dropped, logged once.
 */
function screenToTable(local: WebSocket, up: WebSocket, o: TableRelayOptions, log: TableRelayOptions['log'], hello: { id: string; protocol: number }) {
  const { station, secret, edge } = o.enrolment;
  const tableLink = { name: "station's table link", log };
  const upMax = o.upBufferedBytes ?? TABLE_SEND_BUFFER;
  const screenFlood = o.screenFlood ?? SCREEN_FLOOD;
  const flooding = floodWindow(screenFlood);
  // The table hears the station's credential, with the browser's own message id. An edge hears
  // the station's proof on the host's nonce it greets the link with (the challenge), never the
  // secret: the browser's messages wait for that.
  const early = edge ? [] : [JSON.stringify({ type: 'hello-station', id: hello.id, protocol: hello.protocol, station, secret })];
  let proved = !edge;
  const send = (text: string): boolean => sendBounded(up, text, upMax, tableLink);
  const flush = () => {
    for (const m of early.splice(0)) if (!send(m)) return;
  };
  let dropped = false;
  const dropScreen = (why: string, detail: object) => {
    dropped = true;
    log.warn(detail, why);
    up.terminate();
    if (local.readyState === local.OPEN) local.close(1008, 'screen link refused');
  };
  up.on('open', () => {
    keepAlive(up, o.pingMs ?? DEVICE_LINK_TIMING.pingMs, tableLink);
    if (proved) flush();
  });
  local.on('message', (data) => {
    // A link going (dropped, cut, closed by the table) takes nothing more: what is on its way goes with it.
    if (dropped || up.readyState === up.CLOSING || up.readyState === up.CLOSED) return;
    const text = String(data);
    if (flooding(Buffer.byteLength(text))) return dropScreen("the station's screen flooded its table link: dropped", { limit: screenFlood });
    if (up.readyState === up.OPEN && proved) return void send(text);
    if (early.length >= EARLY_MESSAGES) return dropScreen("the station's screen said too much before the table's proof: link dropped", { held: early.length });
    early.push(text);
  });
  return {
    proved: () => proved,
    /** The proof said to an edge, then what the screen said meanwhile. */
    prove: (text: string) => {
      proved = true;
      if (send(text)) flush();
    },
    send: (text: string) => up.readyState === up.OPEN && send(text),
  };
}

/** What makes a message from a table a lie about whose view it is (null: none). */
export function lieOf(m: HostMessage, view: string, station: number): string | null {
  if (m.type === 'welcome' && m.view !== view) return `welcome for ${m.view}`;
  if (m.type === 'snapshot' && m.view !== view) return `snapshot for ${m.view}`;
  if (m.type === 'snapshot' && m.state.kind !== 'station') return `a ${m.state.kind} view in place of a station's`;
  if (m.type === 'snapshot' && m.state.kind === 'station' && m.state.station !== station) return `station ${m.state.station}'s state`;
  if (m.type === 'patch' && m.view !== view) return `patch for ${m.view}`;
  if (m.type === 'recall' && m.view !== view) return `recall for ${m.view}`;
  return null;
}
