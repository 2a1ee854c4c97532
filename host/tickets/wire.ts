import { z } from 'zod';
import { RequestId, TicketCurrency, TicketRefusal } from '../../terms/ticket-terms.js';
import { ValidationNumber } from '../../terms/validation-number.js';

// The upstream's ticket answers as the table host reads them (docs/upstream.md, "Tickets"). The
// service states the same contract in upstream/ticket-schemas.ts, which the host may not import:
// an answer that does not fit is not believed (`offline`), never guessed around.

export const MachineAnswer = z.looseObject({ machineId: z.number().int().min(1).max(0xffffff) });
export const TicketOk = z.looseObject({ ok: z.literal(true) });
export const Refusal = z.looseObject({ error: z.string().max(200), message: z.string().max(2000).optional() });
export const RedeemAnswer = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('approved'),
    requestId: RequestId,
    validation: ValidationNumber,
    amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    currency: TicketCurrency,
  }),
  z.strictObject({ kind: z.literal('refused'), requestId: RequestId, reason: TicketRefusal }),
]);
