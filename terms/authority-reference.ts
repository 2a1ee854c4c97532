// An authority's reference as the journal holds it and compares it (a jackpot reset's
// authorisation, docs/rules/blackjack.md "One reference, one reset"). People type one reference in
// many ways: full-width letters and digits from a Chinese input method ('ＩＧＪ－１７'), another
// case, blanks around it (an ideographic space too). One form for all of them, made at the
// boundary where a reference comes in and again wherever a journalled one (maybe written before
// this form, as typed) is compared:
//
// - NFKC: full-width and other compatibility forms become their plain letters, digits and
//   punctuation ('Ｉ' → 'I', '１' → '1', '－' → '-', U+3000 → a space);
// - upper case through lower case: String.prototype.toLowerCase/toUpperCase use Unicode's default
//   mappings, never the locale's (a Turkish or Lithuanian locale cannot change the result), and the
//   round trip gives every case variant one form ('ß', 'ẞ' and 'SS' alike; 'ς' and 'σ' alike).
//   Upper case, not lower, because the form is also what a person reads back (the refusal names
//   the reference), and references are written upper case;
// - NFKC again (a case mapping can leave a sequence NFKC would compose), then trimmed.
//
// Blanks inside a reference are kept: 'AB 12' and 'AB12' may be two references, and nothing here
// can tell.

/**
 * The longest reference the journal holds, in its one form (the table's `jackpot-reset` input and
 * the ledger's entry take no more). Checked on the form, not as typed: NFKC and the case round trip
 * can lengthen a reference ('ﬃ' → 'FFI', '㎏' → 'KG', 'ß' → 'SS'), so one typed within the service
 * message's 64 characters can be far longer in the form.
 */
export const AUTHORITY_REFERENCE_MAX = 128;

/** The one form of an authority's reference: equal for any two ways of typing it; '' for blanks only. */
export function authorityReference(typed: string): string {
  return typed.normalize('NFKC').toLowerCase().toUpperCase().normalize('NFKC').trim();
}
