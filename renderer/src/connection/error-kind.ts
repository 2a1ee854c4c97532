import { refusalKey, type ProtocolError } from '../../../protocol/index.js';
import { isMessageKey, type MessageKey } from '../../../locales/i18n.js';

/** Errors that reconnecting cannot cure: the screen stays on them until an attendant fixes what they name. */
const FATAL: ReadonlySet<ProtocolError['code']> = new Set(['unauthorized', 'protocol-version', 'forbidden-view']);

/**
 * Errors that refuse one command: said, never silently dropped, and the message clears itself.
 * `internal` too: the host (or an edge) could not handle what the screen sent (its journal refused
 * the write, a full disk): the tap was not taken, and the player is told to call an attendant.
 */
const REFUSED: ReadonlySet<ProtocolError['code']> = new Set(['rejected', 'stale-version', 'rate-limited', 'internal']);

/**
 * What a screen does with a host's error, one rule for the one-table link (boot/host-link.ts) and
 * a station on several tables (several/start-several.ts); `none`: a screen's own slip the host
 * only logs (a malformed message, a part not subscribed), nothing a player did. An `internal` that
 * answers no message of the screen (no `ref`: an edge that could not make a station's own part from
 * its patches, `host/edges/own-chain.ts`, whose part comes whole again by itself) refuses no tap,
 * and is not said: before (a review, 8 December), the player was told to call an attendant for it.
 */
export function errorKind(e: Pick<ProtocolError, 'code' | 'ref'>): 'fatal' | 'refused' | 'none' {
  if (FATAL.has(e.code)) return 'fatal';
  if (e.code === 'internal' && e.ref === undefined) return 'none';
  return REFUSED.has(e.code) ? 'refused' : 'none';
}

/** The words for a host's error: the refusal's own where the host names one, else its key where the catalogues have it, else the error code's. */
export function errorKey(e: ProtocolError): MessageKey {
  if (e.refusal) return refusalKey(e.refusal);
  return isMessageKey(e.messageKey) ? e.messageKey : `errors.${e.code}`;
}
