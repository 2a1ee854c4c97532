import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type WebSocket from 'ws';
import { openBillAcceptor, type OpenedBillAcceptor } from '../../hardware/open.js';
import type { BillAcceptorEvent, Credit, EscrowDecision, EscrowedNote } from '../../hardware/billacceptor/types.js';
import type { Currency } from '../../hardware/billacceptor/notes.js';
import { RELAYED_EVENTS, type AgentMessage, type HostDeviceMessage } from '../../protocol/index.js';
import type { EnrolmentFile } from '../stadium/enrolment-file.js';
import { AcceptorStatus } from './acceptor-status.js';
import { DeviceLink, type DeviceLinkOptions } from './device-link.js';
import { SasRelay } from './sas-relay.js';

export interface DeviceRelayOptions {
  enrolment: EnrolmentFile;
  /** The acceptor: `sim`, `usb:VID:PID[:serial]`, `tcp:HOST:PORT` or `serial:PATH` (hardware/open.ts). */
  spec: string;
  protocol: 'id003' | 'ssp';
  currency: Currency;
  log: Logger;
  /** Opens the link to the host (the pinned socket); tests pass their own. */
  connect: () => WebSocket;
  /** The station's SAS link to relay (`serial:PATH` or `tcp:HOST:PORT`; docs/sas.md, "Remote stations"), opened when the host runs its machine. */
  sas?: string;
  /** How long a credit waits for the host's "journalled" before the device is left unacknowledged (it repeats). */
  creditWaitMs?: number;
  open?: typeof openBillAcceptor;
  /** The link's send buffer cap and ping interval (device-link.ts; tests: a short ping). */
  linkTiming?: DeviceLinkOptions['timing'];
}

type Asked = Extract<AgentMessage, { type: 'escrow' | 'credit' | 'returned' }>;
interface Waiting {
  message: Asked;
  resolve: (m: HostDeviceMessage) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout | null;
}

const RELAYED: ReadonlySet<string> = new Set(RELAYED_EVENTS);

/**
 * The station's bill acceptor, driven here on the station's machine by the hardware layer's own
 * drivers, its money decisions relayed to the host: the driver asks before it stacks (the host
 * journals the escrow first) and before it acknowledges a credit (the host journals the credit
 * first). A question still unanswered when the link drops is asked again on the next link under
 * the same escrow id, so the host journals it once; a credit that cannot be journalled in time
 * is not acknowledged, so the device repeats it. A return is reported until the host has it.
 * The acceptor opens once the host has said what note, if any, it holds in escrow for this
 * station (a kill or a cut mid-note), so the driver resolves it from the device's own report.
 */
export class DeviceRelay {
  private readonly link: DeviceLink;
  private readonly sas: SasRelay | null;
  private acceptor: OpenedBillAcceptor | null = null;
  private readonly waiting = new Map<string, Waiting>();
  /** The message id of each note's credit report, by escrow id: a report repeated is the same message. */
  private readonly creditIds = new Map<string, string>();
  /** What the driver last said of the acceptor's status: said again on every new link. */
  private readonly status = new AcceptorStatus();

  constructor(private readonly o: DeviceRelayOptions) {
    this.sas = o.sas ? new SasRelay(o.sas, (m) => this.send(m), o.log) : null;
    this.link = new DeviceLink({
      enrolment: o.enrolment,
      acceptor: o.protocol,
      log: o.log,
      connect: o.connect,
      onMessage: (m) => this.receive(m),
      ...(o.linkTiming ? { timing: o.linkTiming } : {}),
    });
  }

  start(): void {
    this.link.start();
  }

  /** The simulator behind a `sim` acceptor (tests, demos), once the acceptor is open. */
  simulator(): OpenedBillAcceptor['simulator'] | null {
    return this.acceptor?.simulator ?? null;
  }

  /** Whether the link to the host is up. */
  connected(): boolean {
    return this.link.connected();
  }

  onLink(listener: (up: boolean) => void): () => void {
    return this.link.onLink(listener);
  }

  async stop(): Promise<void> {
    for (const w of this.waiting.values()) {
      if (w.timer) clearTimeout(w.timer);
      w.reject(new Error('agent stopping'));
    }
    this.waiting.clear();
    this.link.stop();
    await this.sas?.stop();
    await this.acceptor?.close();
  }

  private send(m: AgentMessage): boolean {
    return this.link.send(m);
  }

  private receive(m: HostDeviceMessage): void {
    if (this.sas?.receive(m)) return;
    switch (m.type) {
      case 'device-welcome':
        this.openAcceptor(m);
        // The host learns the acceptor's status only from what is relayed: what was lost with a
        // cut is said again, and so is a status that did not change (the host raised
        // bill-acceptor-lost when the link went).
        for (const e of this.status.again()) this.send(e);
        // Whatever was asked and not answered is asked again: the host journals each escrow id once.
        for (const w of this.waiting.values()) this.send(w.message);
        return;
      case 'enable':
        this.applyEnable(m.enabled, m.accept);
        return;
      case 'decision':
      case 'journalled': {
        const w = this.waiting.get(m.ref);
        if (!w) return;
        this.waiting.delete(m.ref);
        if (w.timer) clearTimeout(w.timer);
        w.resolve(m);
        return;
      }
      case 'refused': {
        this.o.log.warn({ reason: m.reason }, 'the table refused a message');
        const w = m.ref ? this.waiting.get(m.ref) : undefined;
        if (w && m.ref) {
          this.waiting.delete(m.ref);
          if (w.timer) clearTimeout(w.timer);
          w.reject(new Error(m.reason));
        }
        return;
      }
    }
  }

  private openAcceptor(m: Extract<HostDeviceMessage, { type: 'device-welcome' }>): void {
    if (this.acceptor) return this.applyEnable(m.enabled, m.accept);
    const open = this.o.open ?? openBillAcceptor;
    const pending = m.pendingNote;
    this.acceptor = open(this.o.spec, {
      protocol: this.o.protocol,
      currency: this.o.currency,
      accept: m.accept,
      enabled: m.enabled,
      // A note the host journalled in escrow and never saw resolved: the device's report resolves it.
      pendingNote: pending ? { ...pending, code: 0, stackSent: true } : null,
      lastCredit: m.lastCredit ? { ...m.lastCredit, code: 0 } : null,
      onEscrow: (note) => this.escrow(note),
      onCredit: (credit) => this.credit(credit),
    });
    this.acceptor.on((e) => this.event(e));
  }

  private applyEnable(enabled: boolean, accept: readonly number[]): void {
    const a = this.acceptor;
    if (!a) return;
    a.setAccepted(accept);
    if (enabled) a.enable();
    else a.disable();
  }

  /** Asks the host, resending on every new link until answered; rejects after `ms` (undefined: waits). */
  private ask(message: Asked, ms?: number): Promise<HostDeviceMessage> {
    return new Promise((resolve, reject) => {
      const w: Waiting = { message, resolve, reject, timer: null };
      if (ms !== undefined)
        w.timer = setTimeout(() => {
          this.waiting.delete(message.id);
          reject(new Error(`no answer from the table within ${ms} ms`));
        }, ms);
      this.waiting.set(message.id, w);
      this.send(message);
    });
  }

  private note(n: EscrowedNote | Credit) {
    return { escrowId: n.escrowId, amount: n.amount, denomination: n.denomination, currency: n.currency };
  }

  /** The driver's own escrow timeout returns the note if no answer comes: nothing to journal then. */
  private async escrow(note: EscrowedNote): Promise<EscrowDecision> {
    if (!this.link.connected()) return 'return';
    const r = await this.ask({ type: 'escrow', id: randomUUID(), ...this.note(note) });
    return r.type === 'decision' ? r.decision : 'return';
  }

  /**
   * Resolves only once the host journalled the credit: the driver acknowledges the device after
   * this. A credit the driver reports again (no answer in time, the host killed meanwhile) is the
   * same message under the same id: the host answers it as the credit it journalled, where a
   * second report for one escrow under another id would be a refusal and a fault.
   */
  private async credit(credit: Credit): Promise<void> {
    let id = this.creditIds.get(credit.escrowId);
    if (!id) {
      id = randomUUID();
      this.creditIds.set(credit.escrowId, id);
      // The driver credits one note at a time; a few are kept for reports that straddle a reconnect.
      for (const k of this.creditIds.keys()) if (this.creditIds.size > 16) this.creditIds.delete(k);
    }
    await this.ask({ type: 'credit', id, ...this.note(credit), recovered: credit.recovered }, this.o.creditWaitMs ?? 3000);
  }

  private event(e: BillAcceptorEvent): void {
    if (e.type === 'returned' && e.note) {
      // Reported until the host has journalled it (it resolves the escrow the host holds).
      void this.ask({ type: 'returned', id: randomUUID(), ...this.note(e.note), reason: e.reason }).catch(() => undefined);
      return;
    }
    if (!RELAYED.has(e.type)) return;
    const detail = 'reason' in e && typeof e.reason === 'string' ? e.reason.slice(0, 400) : undefined;
    for (const t of RELAYED_EVENTS)
      if (t === e.type) {
        const m = { type: 'event', event: t, ...(detail ? { detail } : {}) } as const;
        this.status.note(m);
        this.send(m);
        return;
      }
  }
}
