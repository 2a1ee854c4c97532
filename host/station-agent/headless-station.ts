import type { Agent } from 'node:https';
import {
  decodeHostMessage,
  PROTOCOL_VERSION,
  stationView,
  ViewComposer,
  type CommandBody,
  type HostMessage,
  type ProtocolError,
  type ViewName,
  type ViewState,
} from '../../protocol/index.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import { proveStation } from '../stadium/station-proof.js';
import { pinnedSocket } from './pinned-socket.js';

export interface HeadlessStationEvents {
  /** Every frame as it arrives, before anything else is done with it (`process.hrtime.bigint()`). */
  arrived?(data: Buffer, at: bigint): void;
  /**
   * Decode later, as a screen paints later: one station's waiting frames a turn of the event loop
   * (`decodeInTurn`), so a load generator's many stations in one process do not delay each
   * other's stamps, as stations on machines of their own would not.
   */
  deferDecode?: boolean;
  /** How long the link's opening may take (ms; default `HANDSHAKE_MS`, 10 s): `pinnedSocket`. */
  handshakeMs?: number;
  /** Every message as received (decoded), with the time it arrived (`process.hrtime.bigint()`). */
  message?(m: HostMessage, receivedAt: bigint, bytes: number): void;
  /** The view, whenever a message changed it. */
  view?(state: ViewState, version: number): void;
  error?(e: ProtocolError): void;
  closed?(): void;
}

/** The process's stations with frames waiting to be decoded, in the order their first frame came. */
const turns: (() => void)[] = [];
let turning = false;

/**
 * Decodes one station's waiting frames a turn of the event loop: each turn ends in a poll of the
 * sockets, where every frame that came meanwhile is stamped as it arrives. Decoding them all in
 * one turn (a stadium's settled coup: 62 stations' round, own and panel patches, about 90 ms in
 * one bench client process) held the frames behind them unread, and their stamps late, for as long.
 */
export function decodeInTurn(decode: () => void): void {
  turns.push(decode);
  if (turning) return;
  turning = true;
  setImmediate(nextTurn);
}

function nextTurn(): void {
  try {
    // A frame that fails its schema throws, to the process, as it did when decoded at once.
    turns.shift()?.();
  } finally {
    if (turns.length > 0) setImmediate(nextTurn);
    else turning = false;
  }
}

/**
 * A remote station's screen without a screen: the same protocol as the station's browser,
 * straight to the table's LAN listener with the station's credential over the pinned TLS. Load
 * generators, the stadium tests and the soak drive stations with it.
 */
export class HeadlessStation {
  readonly view: ViewName;
  private readonly composer: ViewComposer;
  private socket: ReturnType<typeof pinnedSocket> | null = null;
  private seq = 0;
  private latestState: ViewState | null = null;

  constructor(
    private readonly enrolment: EnrolmentFile,
    private readonly agent: Agent,
    private readonly events: HeadlessStationEvents = {},
  ) {
    this.view = stationView(enrolment.station);
    // A patch that does not follow what it holds asks for the part whole, as a screen does.
    this.composer = new ViewComposer(this.view, { resync: (parts) => this.send({ type: 'resync', id: this.id(), view: this.view, parts }) });
  }

  /** Connects, says who it is and subscribes; resolves once the link is open. */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = pinnedSocket(this.enrolment, this.agent, '/ws', { handshakeMs: this.events.handshakeMs });
      this.socket = ws;
      ws.once('open', () => {
        const { station, secret } = this.enrolment;
        // Through an edge the secret stays here: the edge greets with a nonce, and the first hello carries the proof on it.
        if (this.enrolment.edge) return void resolve();
        this.send({ type: 'hello-station', id: this.id(), protocol: PROTOCOL_VERSION, station, secret });
        this.send({ type: 'subscribe', id: this.id(), view: this.view });
        resolve();
      });
      // Every error is handled: the first one before the link opened fails connect(), later ones end in 'close'.
      ws.on('error', reject);
      ws.on('message', (data: Buffer) => this.receive(data));
      ws.on('close', () => this.events.closed?.());
    });
  }

  /** The underlying socket (the bench throttles and pauses it). */
  raw(): ReturnType<typeof pinnedSocket> | null {
    return this.socket;
  }

  latest(): ViewState | null {
    return this.latestState;
  }

  version(): number {
    return this.composer.version();
  }

  /** Shows the station's recall (a player with its recall panel open) or stops: it is asked for from the table only meanwhile. */
  wantRecall(on: boolean): void {
    this.composer.want(on);
  }

  /** Sends a command against the view's version; returns its message id (the reply's `ref`). */
  command(command: CommandBody): string {
    const id = this.id();
    this.send({ type: 'command', id, view: this.view, version: this.composer.version(), command });
    return id;
  }

  close(): void {
    this.socket?.close();
  }

  terminate(): void {
    this.socket?.terminate();
  }

  private readonly backlog: { data: Buffer; at: bigint }[] = [];

  private receive(data: Buffer): void {
    const at = process.hrtime.bigint();
    this.events.arrived?.(data, at);
    if (!this.events.deferDecode) return this.decode(data, at);
    this.backlog.push({ data, at });
    if (this.backlog.length === 1)
      decodeInTurn(() => {
        for (const x of this.backlog.splice(0)) this.decode(x.data, x.at);
      });
  }

  private decode(data: Buffer, at: bigint): void {
    // Its own view's decoder, as the station's screen decodes (renderer/src/connection/host-client.ts).
    const d = decodeHostMessage(data.toString(), this.view);
    if (!d.ok) throw new Error(`station ${this.enrolment.station}: a message that fails its schema: ${d.error.detail}: ${data.toString().slice(0, 400)}`);
    this.events.message?.(d.message, at, data.byteLength);
    if (d.message.type === 'error') this.events.error?.(d.message);
    if (d.message.type === 'challenge') return this.prove(d.message.nonce);
    const composed = this.composer.take(d.message);
    if (composed) {
      this.latestState = composed.state;
      this.events.view?.(composed.state, composed.version);
    }
  }

  /** An edge's greeting: the proof of the secret on the host's nonce, then the subscription (the edge takes them in order). */
  private prove(nonce: string): void {
    const { station, secret, tableId } = this.enrolment;
    const proof = proveStation(secret, tableId, station, nonce);
    this.send({ type: 'hello-station', id: this.id(), protocol: PROTOCOL_VERSION, station, nonce, proof });
    this.send({ type: 'subscribe', id: this.id(), view: this.view });
  }

  private send(m: object): void {
    const ws = this.socket;
    if (ws && ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  }

  private id(): string {
    return `m${++this.seq}`;
  }
}
