import en from './en.json' with { type: 'json' };
import pt from './pt.json' with { type: 'json' };
import zhHant from './zh-Hant.json' with { type: 'json' };

/** The catalogues, keyed by the protocol's language names. zh-Hant is the source catalogue. */
export const catalogues = { 'zh-Hant': zhHant, pt, en } as const;
export type Catalogue = typeof zhHant;
