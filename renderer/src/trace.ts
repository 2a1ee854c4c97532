/**
 * Where a benchmark learns, without walking the stage, when a card's sprite first went on it: a
 * hook that is a no-op unless the page was opened with `?trace=1` (test-hooks.ts installs it).
 */
let cardShown: ((code: string) => void) | null = null;

export function setCardTrace(hook: ((code: string) => void) | null): void {
  cardShown = hook;
}

/** A card sprite was put on the stage with this face (`XX` for one face down). */
export function traceCard(code: string): void {
  cardShown?.(code);
}

let jackpotShown: ((pools: string) => void) | null = null;

export function setJackpotTrace(hook: ((pools: string) => void) | null): void {
  jackpotShown = hook;
}

/** The jackpot panel's pools were drawn anew (`level:pool,…`): the screens bench pairs it with the host's change. */
export function traceJackpot(pools: string): void {
  jackpotShown?.(pools);
}

let frameDrawn: ((t: number) => void) | null = null;

export function setFrameTrace(hook: ((t: number) => void) | null): void {
  frameDrawn = hook;
}

/** A frame was drawn, in the animation frame of timestamp `t`: the screens bench times the frames drawn, not the display's refreshes. */
export function traceFrame(t: number): void {
  frameDrawn?.(t);
}
