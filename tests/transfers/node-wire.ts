import { z } from 'zod';

// What the SIGKILL trial's parent says to a transfer node (transfer-node.ts), and hears back.

export const STATIONS = [101, 102, 103] as const;
/** Each station's home table: it is credited there (OPENING_CREDIT), and its credit goes away and comes back. */
export const HOMES: Readonly<Record<(typeof STATIONS)[number], string>> = { 101: 'home', 102: 'home', 103: 'war' };
export const OPENING_CREDIT = 10_000;

export const NodeCommand = z.discriminatedUnion('kind', [
  z.strictObject({ n: z.number().int(), kind: z.literal('start'), station: z.number().int(), to: z.string(), amount: z.number().int() }),
  z.strictObject({ n: z.number().int(), kind: z.literal('tick') }),
  z.strictObject({ n: z.number().int(), kind: z.literal('receive'), link: z.string(), message: z.unknown() }),
  z.strictObject({ n: z.number().int(), kind: z.literal('recall') }),
  z.strictObject({ n: z.number().int(), kind: z.literal('status') }),
  z.strictObject({ n: z.number().int(), kind: z.literal('exit') }),
]);
export type NodeCommand = z.infer<typeof NodeCommand>;
type Without<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;
export type NodeAsk = Without<NodeCommand, 'n'>;

export const NodeLine = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('ready') }),
  z.strictObject({ kind: z.literal('send'), to: z.string(), message: z.unknown() }),
  z.strictObject({ kind: z.literal('alarm'), reason: z.string(), detail: z.string() }),
  z.strictObject({ kind: z.literal('done'), n: z.number().int(), open: z.number().int(), refused: z.string().optional() }),
]);
export type NodeLine = z.infer<typeof NodeLine>;
