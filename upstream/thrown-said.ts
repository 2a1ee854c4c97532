/** The most of a thrown value's words a message carries. */
const MAX = 300;

/**
 * What a thrown value says, for a message: PGlite (Emscripten) can throw what is not an Error (an
 * exit status, a plain object), which `String(e)` reads as "[object Object]".
 */
export function thrownSaid(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e !== 'object' || e === null) return String(e).slice(0, MAX);
  if ('message' in e && typeof e.message === 'string') return e.message.slice(0, MAX);
  if ('status' in e && typeof e.status === 'number') return `exit status ${e.status}`;
  try {
    return JSON.stringify(e).slice(0, MAX);
  } catch {
    return 'an object that is not an Error';
  }
}
