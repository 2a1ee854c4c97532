import { z } from 'zod';
import { TIMER_KINDS } from '../../../engine/table/state.js';
import { PRINTER_SIM_FAULTS, type HostApp, type SimControls } from '../http-deps.js';

/** Simulated mode's control channel for tests and demos (`--sim-controls`): each route needs the sim token. */
export function simControlRoutes(app: HostApp, sim: SimControls): void {
  // `jamAfterStack`: the acceptor jams with the note once the host has journalled it in escrow (a note held for a person).
  app.post<{ Body: { station?: unknown; note?: unknown; jamAfterStack?: unknown } }>('/sim/insert-note', async (req, reply) => {
    if (req.headers['x-sim-token'] !== sim.token) return reply.code(401).send({ error: 'sim token required' });
    const { station, note, jamAfterStack } = req.body ?? {};
    if (typeof station !== 'number' || typeof note !== 'number' || (jamAfterStack !== undefined && jamAfterStack !== true))
      return reply.code(400).send({ error: 'station and note (face value) are numbers (and jamAfterStack, if given, is true)' });
    const refused = sim.insertNote(station, note, jamAfterStack ? { jamAfterStack } : undefined);
    return refused ? reply.code(409).send({ error: refused }) : { ok: true };
  });
  // `swapAfterStack`: the acceptor breaks its protocol once told to STACK (another barcode in escrow): the ticket held for a person.
  app.post<{ Body: { station?: unknown; barcode?: unknown; swapAfterStack?: unknown } }>('/sim/insert-ticket', async (req, reply) => {
    if (req.headers['x-sim-token'] !== sim.token) return reply.code(401).send({ error: 'sim token required' });
    const digits = z.string().regex(/^\d{1,40}$/);
    const body = z.strictObject({ station: z.number().int().min(1).max(9999), barcode: digits, swapAfterStack: digits.optional() }).safeParse(req.body);
    if (!body.success) return reply.code(400).send({ error: 'station is a station number, barcode its digits (and swapAfterStack other digits)' });
    const { station, barcode, swapAfterStack } = body.data;
    const refused = sim.insertTicket(station, barcode, swapAfterStack === undefined ? undefined : { swapAfterStack });
    return refused ? reply.code(409).send({ error: refused }) : { ok: true };
  });
  app.post<{ Body: { station?: unknown } }>('/sim/take-ticket', async (req, reply) => {
    if (req.headers['x-sim-token'] !== sim.token) return reply.code(401).send({ error: 'sim token required' });
    const station = z.number().int().min(1).max(9999).safeParse(req.body?.station);
    if (!station.success) return reply.code(400).send({ error: 'station is a station number' });
    const taken = sim.takeTicket(station.data);
    return typeof taken === 'string' ? reply.code(409).send({ error: taken }) : taken;
  });
  app.post<{ Body: { cards?: unknown } }>('/sim/hold-dealer', async (req, reply) => {
    if (req.headers['x-sim-token'] !== sim.token) return reply.code(401).send({ error: 'sim token required' });
    const cards = z
      .number()
      .int()
      .min(0)
      .max(416)
      .safeParse(req.body?.cards ?? 0);
    if (!cards.success) return reply.code(400).send({ error: 'cards is a whole number from 0 to 416 (eight decks)' });
    const refused = sim.holdDealer(cards.data);
    return refused ? reply.code(409).send({ error: refused }) : { ok: true };
  });
  for (const [path, act] of [
    ['/sim/unreadable-next', sim.unreadableNext],
    ['/sim/misdraw', sim.misdraw],
    ['/sim/release-dealer', sim.releaseDealer],
  ] as const) {
    app.post(path, async (req, reply) => {
      if (req.headers['x-sim-token'] !== sim.token) return reply.code(401).send({ error: 'sim token required' });
      const refused = act();
      return refused ? reply.code(409).send({ error: refused }) : { ok: true };
    });
  }
  for (const [path, act] of [
    ['/sim/end-countdown', sim.endCountdown],
    ['/sim/freeze-countdown', sim.freezeCountdown],
  ] as const) {
    app.post<{ Body: { kind?: unknown } }>(path, async (req, reply) => {
      if (req.headers['x-sim-token'] !== sim.token) return reply.code(401).send({ error: 'sim token required' });
      const kind = z.enum(TIMER_KINDS).safeParse(req.body?.kind);
      if (!kind.success) return reply.code(400).send({ error: `kind is one of ${TIMER_KINDS.join(', ')}` });
      const refused = act(kind.data);
      return refused ? reply.code(409).send({ error: refused }) : { ok: true };
    });
  }
  app.post<{ Body: { station?: unknown; fault?: unknown } }>('/sim/bill-fault', async (req, reply) => {
    if (req.headers['x-sim-token'] !== sim.token) return reply.code(401).send({ error: 'sim token required' });
    const { station, fault } = req.body ?? {};
    if (typeof station !== 'number' || (fault !== 'jam' && fault !== 'clear'))
      return reply.code(400).send({ error: 'station is a number, fault is jam or clear' });
    const refused = sim.billFault(station, fault);
    return refused ? reply.code(409).send({ error: refused }) : { ok: true };
  });
  // A station's simulated printer out of paper or jammed (or cleared): its next cash-out is a handpay (docs/tito.md).
  app.post<{ Body: { station?: unknown; fault?: unknown } }>('/sim/printer-fault', async (req, reply) => {
    if (req.headers['x-sim-token'] !== sim.token) return reply.code(401).send({ error: 'sim token required' });
    const body = z.strictObject({ station: z.number().int().min(1).max(9999), fault: z.enum(PRINTER_SIM_FAULTS) }).safeParse(req.body);
    if (!body.success) return reply.code(400).send({ error: `station is a station number, fault one of ${PRINTER_SIM_FAULTS.join(', ')}` });
    const refused = sim.printerFault(body.data.station, body.data.fault);
    return refused ? reply.code(409).send({ error: refused }) : { ok: true };
  });
}
