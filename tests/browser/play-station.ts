import { errors, type Page } from '@playwright/test';
import { press } from './kiosk-fixture.js';

/** A station's result heading, in the languages the tests read (`本局結果 …`, `Resultado …`, `Result …`). */
const RESULT = /^(本局結果|Resultado|Result) /;

/** How long a press may go unanswered (no new view, no refusal) before the test says it was lost. */
const ANSWER_MS = 30_000;

interface Look {
  done: boolean;
  id: string;
  box: { x: number; y: number; width: number; height: number };
  mark: number;
}

/**
 * Takes the decisions a station is asked until its result is shown: whenever one of `decisions`
 * is on screen (the first shown, in that order), it is pressed where that look saw it, and the
 * screen's answer is waited for before the station is looked at again. The answer is the button
 * gone (the decision taken, the next view drawn), moved (the view changed between the look and the
 * press, and the finger met nothing), or a refusal (the host refused a decision made against a
 * view that had moved on): the next look is then at the view now shown, and its question is pressed
 * again, as a player would. The look and its answer are waited for on the screen's own state, never
 * a sleep. A press that nothing answers within ANSWER_MS fails the test: a lost press is the
 * product's bug.
 */
export async function playToResult(station: Page, decisions: readonly string[], timeout = 180_000): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const look = await lookForDecision(station, decisions, deadline);
    if (look.done) return;
    await station.mouse.click(look.box.x + look.box.width / 2, look.box.y + look.box.height / 2);
    try {
      await station.waitForFunction(
        ([id, box, mark]) => {
          const k = window.__kiosk;
          if (!k) return false;
          if (k.events.slice(mark).some((e) => e.startsWith('refused:') || e.startsWith('error:'))) return true;
          const now = k.bounds(id);
          return now === null || now.x !== box.x || now.y !== box.y || now.width !== box.width || now.height !== box.height;
        },
        [look.id, look.box, look.mark] as const,
        { polling: 100, timeout: ANSWER_MS },
      );
    } catch (e) {
      if (!(e instanceof errors.TimeoutError)) throw e;
      const since = await station.evaluate((n) => window.__kiosk?.events.slice(n) ?? [], look.mark);
      throw new Error(
        `${look.id} pressed and not answered in ${ANSWER_MS / 1000} s: still shown where it was, no refusal (events since: ${since.join(', ') || 'none'})`,
        { cause: e },
      );
    }
  }
}

/** The station's result, or the first of `decisions` it shows and where, read in one go. */
async function lookForDecision(station: Page, decisions: readonly string[], deadline: number): Promise<Look> {
  try {
    const handle = await station.waitForFunction(
      ([ids, result]) => {
        const k = window.__kiosk;
        if (!k) return null;
        const heading = new RegExp(result);
        if (k.texts().some((t) => heading.test(t.replace(/[\u00a0\u202f]/g, ' '))))
          return { done: true, id: '', box: { x: 0, y: 0, width: 0, height: 0 }, mark: 0 };
        for (const id of ids) {
          const box = k.bounds(id);
          if (box) return { done: false, id, box, mark: k.events.length };
        }
        return null;
      },
      [decisions, RESULT.source] as const,
      // Polled on a timer, not on animation frames: a starved software renderer delays frames.
      { polling: 200, timeout: Math.max(1, deadline - Date.now()) },
    );
    const look = (await handle.jsonValue()) as Look;
    await handle.dispose();
    return look;
  } catch (e) {
    if (!(e instanceof errors.TimeoutError)) throw e;
    const refused = await station.evaluate(() => window.__kiosk?.events.filter((x) => x.startsWith('refused:')) ?? []);
    throw new Error(`no result on the station in time, and none of ${decisions.join(', ')} shown (refusals: ${refused.join(', ') || 'none'})`, { cause: e });
  }
}

/**
 * Switches a screen's language and waits for the snapshot in it: each press is answered (the
 * language's snapshot, or the host's refusal of a press made against a view that had moved on)
 * before the screen is looked at again, and a refused one is pressed again.
 */
export async function setLanguage(page: Page, lang: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const seen = await page.evaluate(() => window.__kiosk?.events ?? []);
    if (seen.findLast((e) => e.startsWith('language:')) === `language:${lang}`) return;
    if (Date.now() > deadline) throw new Error(`language ${lang} not shown in 60 s (last: ${seen.findLast((e) => e.startsWith('language:')) ?? 'none'})`);
    const mark = seen.length;
    await press(page, `language-${lang}`);
    await page.waitForFunction(
      ([n, l]) => (window.__kiosk?.events ?? []).slice(n).some((e) => e === `language:${l}` || e.startsWith('error:')),
      [mark, lang] as const,
      { polling: 100, timeout: 20_000 },
    );
  }
}
