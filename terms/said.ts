import { z } from 'zod';

/** A said text's parameters: at most sixteen, each a bounded string or a number. */
const values = z
  .record(z.string().regex(/^[a-zA-Z]{1,32}$/), z.union([z.string().max(400), z.number().finite()]))
  .refine((v) => Object.keys(v).length <= 16, 'at most sixteen parameters');

/**
 * What a refusal says to a person, as the journal carries it (host/config/refusal-words.ts): a
 * key of the catalogues (`configRefusal.*`, `service.ruleRefusal.*`) and its parameters, at most
 * sixteen, each a bounded string or a number. A reader shows it only where the key is one its
 * catalogues have words for; else the entry's English `reason`.
 */
export const said = z.strictObject({
  key: z.string().regex(/^(configRefusal|service\.ruleRefusal)\.[A-Za-z-]{1,64}$/),
  values,
});
export type SaidPayload = z.infer<typeof said>;

/**
 * A fault's detail as the journal carries it beside its English (`tilt.raise`'s `say` and `detail`,
 * host/tilts): a key of the catalogues' `tiltDetail` section and its parameters, which service mode
 * says in the reader's language; a reader without the key shows the English `detail`.
 */
export const tiltSaid = z.strictObject({
  key: z.string().regex(/^tiltDetail\.[A-Za-z]{1,64}$/),
  values,
});
export type TiltSaidPayload = z.infer<typeof tiltSaid>;

/**
 * What the journal says of an act of its own (`meter.clear`'s `say`, beside the `reason` a person
 * gave or the host's English): a key of the catalogues' `journalSaid` section and its parameters,
 * which the event log says in the reader's language.
 */
export const journalSaid = z.strictObject({
  key: z.string().regex(/^journalSaid\.[A-Za-z]{1,64}$/),
  values,
});
export type JournalSaidPayload = z.infer<typeof journalSaid>;
