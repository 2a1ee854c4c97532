import { z } from 'zod';

/**
 * What a refusal says to a person, as the journal carries it (host/config/refusal-words.ts): a
 * key of the catalogues (`configRefusal.*`, `service.ruleRefusal.*`) and its parameters, at most
 * sixteen, each a bounded string or a number. A reader shows it only where the key is one its
 * catalogues have words for; else the entry's English `reason`.
 */
export const said = z.strictObject({
  key: z.string().regex(/^(configRefusal|service\.ruleRefusal)\.[A-Za-z-]{1,64}$/),
  values: z
    .record(z.string().regex(/^[a-zA-Z]{1,32}$/), z.union([z.string().max(400), z.number().finite()]))
    .refine((v) => Object.keys(v).length <= 16, 'at most sixteen parameters'),
});
export type SaidPayload = z.infer<typeof said>;
