import type { TFunction } from 'i18next';
import { STADIUM_SEAT, type DealerCue, type RoundView } from '../../../protocol/index.js';

/** Seconds left until `endsAt` (host clock, same machine or NTP-synchronised), never negative. */
export function secondsLeft(endsAt: number | null, now: number): number {
  return endsAt === null ? 0 : Math.max(0, Math.ceil((endsAt - now) / 1000));
}

export function phaseText(t: TFunction, round: RoundView, now: number): string {
  if (round.phase === 'hold') return round.hold ? t(`hold.${round.hold}`) : t('phase.hold');
  if (round.cue?.kind === 'shuffle') return t('phase.shuffle');
  if (round.phase === 'betting') return t('phase.betting', { seconds: secondsLeft(round.endsAt, now) });
  return t(`phase.${round.phase}`);
}

/** The dealer guidance line: where the next card goes, a burn, a decision awaited, a shuffle. */
export function cueText(t: TFunction, cue: DealerCue | null): string {
  if (!cue) return '';
  if (cue.kind === 'shuffle') return t('cue.shuffle');
  // Portugal rule 49: the cards stay until the jackpot is paid.
  if (cue.kind === 'jackpot-unpaid') return t('cue.jackpotUnpaid', { n: cue.seat });
  // The stadium box (war) is no seat of the felt: its card and its decisions are the remote stations'.
  if (cue.kind === 'decision') return cue.seat === STADIUM_SEAT ? t('cue.stadiumDecision') : t('cue.decision', { n: cue.seat });
  if (cue.to === 'burn') return cue.burnsLeft ? t('cue.burnCount', { count: cue.burnsLeft }) : t('cue.burn');
  if (cue.to === 'seat' && cue.seat === STADIUM_SEAT) return t('cue.stadium');
  if (cue.to === 'seat') return cue.hand ? t('cue.seatHand', { n: cue.seat, h: cue.hand + 1 }) : t('cue.seat', { n: cue.seat });
  return t(`cue.${cue.to}`);
}
