import type { AgentMessage } from '../../protocol/index.js';

type EventMessage = Extract<AgentMessage, { type: 'event' }>;
type Condition = 'jam' | 'stackerFull' | 'stackerRemoved' | 'failure';

/**
 * The acceptor's status as the driver last said it, in the relayed events' words, to be said
 * again on every new device link. The driver says each status once, when it changes, and the
 * host learns it only from what the agent relays; the host also raises `bill-acceptor-lost` when
 * a link closes. A change said while the link was down was lost with it, and a link that came
 * back over an acceptor that had not changed left `bill-acceptor-lost` raised: the host's faults
 * stayed wrong until the device next changed (a review of the agent's device link). Read as the
 * host's tilt sources read them (host/tilts/tilt-sources.ts): `idle` and `faultCleared` clear
 * every condition, `stackerReplaced` the stacker's.
 */
export class AcceptorStatus {
  /** The device's link to the driver: unknown until the driver says. */
  private device: { connected: true } | { connected: false; detail: string | undefined } | null = null;
  private readonly held = new Map<Condition, string | undefined>();
  /** Whether the device last said it was idle, every condition gone. */
  private idle = false;

  /** Takes in an event the agent relays. */
  note(m: EventMessage): void {
    switch (m.event) {
      case 'connected':
      case 'reconnected':
        this.device = { connected: true };
        return;
      case 'disconnected':
        this.device = { connected: false, detail: m.detail };
        this.idle = false;
        return;
      case 'jam':
      case 'stackerFull':
      case 'stackerRemoved':
      case 'failure':
        this.held.set(m.event, m.detail);
        this.idle = false;
        return;
      case 'stackerReplaced':
        this.held.delete('stackerFull');
        this.held.delete('stackerRemoved');
        return;
      case 'idle':
      case 'faultCleared':
        // The host reads either as the device healthy and with it: connected.
        this.device = { connected: true };
        this.held.clear();
        this.idle = m.event === 'idle';
        return;
      default:
        // One-off reports (a note rejected, a cheat, an unvalued credit) are not a status.
        return;
    }
  }

  /**
   * The events that say the status again, in order: nothing before the driver has said anything;
   * a device lost, as lost; else connected, then each condition held, or idle when none is.
   */
  again(): EventMessage[] {
    const d = this.device;
    if (!d) return [];
    if (!d.connected) return [{ type: 'event', event: 'disconnected', ...(d.detail ? { detail: d.detail } : {}) }];
    const out: EventMessage[] = [{ type: 'event', event: 'connected' }];
    for (const [event, detail] of this.held) out.push({ type: 'event', event, ...(detail ? { detail } : {}) });
    if (this.held.size === 0 && this.idle) out.push({ type: 'event', event: 'idle' });
    return out;
  }
}
