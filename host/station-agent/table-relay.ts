import type { Logger } from 'pino';
import type WebSocket from 'ws';
import { decodeHostMessage, stationView, ViewComposer, type HostMessage } from '../../protocol/index.js';
import { sendBounded } from '../server/bounded-socket.js';
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

export interface TableRelayOptions {
  enrolment: EnrolmentFile;
  log: Logger;
  /** Opens a link to the table's `/ws` over the pinned TLS settings. */
  connect: () => WebSocket;
  flood?: { messages: number; bytes: number; windowMs: number };
  /** The send buffer cap of the screen's link (default SCREEN_SEND_BUFFER; tests: smaller). */
  maxBufferedBytes?: number;
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
  const flood = o.flood ?? FLOOD;
  const maxBuffered = o.maxBufferedBytes ?? SCREEN_SEND_BUFFER;
  const screenLink = { name: "station's screen link", log: o.log.child({ table: o.enrolment.tableId, station: o.enrolment.station }) };
  const up = o.connect();
  const { station, secret, tableId, edge } = o.enrolment;
  // The table hears the station's credential, with the browser's own message id. An edge hears
  // the station's proof on the host's nonce it greets the link with (the challenge), never the
  // secret: the browser's messages wait for that.
  const early = edge ? [] : [JSON.stringify({ type: 'hello-station', id: hello.id, protocol: hello.protocol, station, secret })];
  let proved = !edge;
  let window = { start: Date.now(), messages: 0, bytes: 0 };
  const dropTable = (why: string, detail: object) => {
    o.log.warn({ table: o.enrolment.tableId, station: o.enrolment.station, ...detail }, why);
    up.terminate();
    if (local.readyState === local.OPEN) local.close(1011, 'table link refused');
  };
  /** Whether the table has sent more than its share this window. */
  const flooding = (bytes: number): boolean => {
    const now = Date.now();
    if (now - window.start >= flood.windowMs) window = { start: now, messages: 0, bytes: 0 };
    window.messages++;
    window.bytes += bytes;
    return window.messages > flood.messages || window.bytes > flood.bytes;
  };
  // The relay holds the station's view as the screen does: each patch from the table is applied
  // to its copy first. One that does not follow it (lost on the LAN's way, or altered) is not
  // passed on; the relay asks the table for the part whole in the screen's place.
  let asked = 0;
  const copy = new ViewComposer(view, {
    resync: (parts) => up.readyState === up.OPEN && up.send(JSON.stringify({ type: 'resync', id: `relay-${++asked}`, view, parts })),
  });
  up.on('open', () => {
    if (proved) for (const m of early.splice(0)) up.send(m);
  });
  up.on('message', (data) => {
    const text = String(data);
    if (flooding(Buffer.byteLength(text))) return dropTable('the table flooded the station’s screen link: dropped', { limit: flood });
    const d = decodeHostMessage(text);
    if (!d.ok) return o.log.warn({ table: o.enrolment.tableId, detail: d.error.detail }, 'the table sent a message that fails its schema: not passed on');
    const lie = lieOf(d.message, view, o.enrolment.station);
    if (lie) return dropTable('the table spoke for a view that is not this station’s: link dropped', { lie });
    const m = d.message;
    if (m.type === 'challenge') {
      if (proved) return dropTable('the table asked twice for the station’s proof: link dropped', {});
      proved = true;
      up.send(
        JSON.stringify({
          type: 'hello-station',
          id: hello.id,
          protocol: hello.protocol,
          station,
          nonce: m.nonce,
          proof: proveStation(secret, tableId, station, m.nonce),
        }),
      );
      for (const x of early.splice(0)) up.send(x);
      return;
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
  local.on('message', (data) => {
    const text = String(data);
    if (up.readyState === up.OPEN && proved) up.send(text);
    else early.push(text);
  });
  local.on('close', () => up.close());
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
