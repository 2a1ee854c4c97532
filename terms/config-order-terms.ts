// Configuration orders from the floor (issue 49 item 6; docs/backoffice.md): what the upstream may
// propose and what a table takes, defined once so the two ends cannot drift apart. A request the
// upstream accepts that its table cannot read would be delivered, refused unread and sent again at
// every heartbeat (a review of the configuration orders found one did exactly that).
import { z } from 'zod';

/** The settings an order may change: the five the back office proposes, no other (not the handpay threshold, the denominations…). */
export const ORDER_KEYS = ['limits', 'betLimits', 'creditLimit', 'profileOptions', 'profile'] as const;
export type OrderKey = (typeof ORDER_KEYS)[number];

/**
 * The settings whose new value holds amounts (minor units of the table's currency): an order of one
 * names the currency it was proposed in (v2), and the table refuses it in another (a review of 6
 * December: a table whose currency changed between the proposal and the order took the amounts in
 * its new currency's units).
 */
export const ORDER_CURRENCY_KEYS: readonly OrderKey[] = ['limits', 'betLimits', 'creditLimit'];

/** The currency an order's amounts are in: ISO 4217 code and minor-unit exponent, as a table's heartbeat names its own. */
export const OrderCurrency = z.strictObject({ code: z.string().regex(/^[A-Z]{3}$/), exponent: z.number().int().min(0).max(4) });
export type OrderCurrency = z.infer<typeof OrderCurrency>;

/** The longest order text a table takes (host/floor/remote-config.ts); a longer one, signed, is refused in the journal. */
export const ORDER_TEXT_MAX = 16_384;

/**
 * The longest new value (`after`, as JSON) a proposal may carry: with the rest of the order (its
 * reference, at most 128 characters however escaped, the names, the times) well under ORDER_TEXT_MAX.
 */
export const ORDER_AFTER_MAX = 8_192;

/** The most bets one change of the bet limits may name: above any game's (engine/table/vocabulary.ts names 18 spots, and `behind`). */
export const BET_LIMITS_MAX = 32;

/**
 * The most a station credit limit may be (minor units): what SAS's current credits (0x1A, 4 BCD
 * bytes) can say, as the table's configuration holds it (host/config/table-config.ts SAS_CREDIT_MAX).
 */
export const CREDIT_LIMIT_MAX = 99_999_999;
