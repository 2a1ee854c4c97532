import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ackRefusal } from './alarms.js';
import { api, ApiError } from './api.js';
import { words } from './i18n.js';

// What the page says when the upstream refuses or fails what it asked, or does not answer at all:
// in the page's language, by the catalogues' words. Before a review of 7 December it said «Could not
// load: {{message}}» with the error's own text: the browser's English («Failed to fetch»), or a status
// and the upstream's code («401 signed-out», «403 csrf», «429 Too Many Requests»), in every language.
describe('a failure the page says', () => {
  const real = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = real;
  });

  it('is no answer at all when fetch fails or the answer is cut off: ApiError network, no status', async () => {
    globalThis.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    await assert.rejects(api.floor(), (e: unknown) => e instanceof ApiError && e.status === 0 && e.code === 'network');
    globalThis.fetch = async () =>
      new Response(
        new ReadableStream({
          start(c) {
            c.error(new TypeError('network error'));
          },
        }),
        { status: 200 },
      );
    await assert.rejects(api.floor(), (e: unknown) => e instanceof ApiError && e.status === 0 && e.code === 'network');
  });

  const FAILURES: [string, unknown][] = [
    ['no answer', new ApiError(0, 'network')],
    ['the session ended', new ApiError(401, 'signed-out')],
    ['the CSRF token refused', new ApiError(403, 'csrf')],
    ['the role refused', new ApiError(403, 'role')],
    ['too many requests', new ApiError(429, 'Too Many Requests', 42)],
    ["the upstream's own failure", new ApiError(500, 'Internal Server Error')],
    ["a proxy's page of a 502", new ApiError(502, 'http')],
    ['an answer of another shape', new ApiError(200, 'unreadable')],
    ['a request refused as malformed', new ApiError(400, 'Bad Request')],
    ['an address that names no route', new ApiError(404, 'no-route')],
    ["the page's own error", new TypeError("Cannot read properties of undefined (reading 'x')")],
  ];
  const ENGLISH = /Failed to fetch|signed-out|csrf|Too Many|Internal Server|\bhttp\b|unreadable|Bad Request|no-route|Cannot read|backoffice\./;

  it('is said in words of the catalogues, in each language, never the error or its code', () => {
    const en = words('en');
    for (const l of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const w = words(l);
      const said = new Set<string>();
      for (const [what, e] of FAILURES) {
        const text = ackRefusal(w, e);
        assert.doesNotMatch(text, ENGLISH, `${l}, ${what}: ${text}`);
        if (l !== 'en') assert.notEqual(text, ackRefusal(en, e), `${l}, ${what}: the English words`);
        said.add(text);
      }
      // No answer, a session ended, a token, a role, a wait, a failure, an answer unread, a refusal, the page's own.
      assert.ok(said.size >= 9, `${l}: ${[...said].join(' | ')}`);
    }
  });

  it('says the wait the upstream asks, the status of a failure, and a session ended as the sign-in does', () => {
    const w = words('en');
    assert.match(ackRefusal(w, new ApiError(429, 'Too Many Requests', 42)), /42/);
    assert.match(ackRefusal(w, new ApiError(502, 'http')), /502/);
    assert.equal(ackRefusal(w, new ApiError(401, 'signed-out')), w.t('backoffice.signIn.ended'));
  });

  it('says two session cookies (one planted) apart from a session ended, in each language', () => {
    for (const l of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const w = words(l);
      const said = ackRefusal(w, new ApiError(401, 'cookie-twice'));
      assert.equal(said, w.t('backoffice.signIn.cookieTwice'), l);
      assert.notEqual(said, w.t('backoffice.signIn.ended'), l);
      assert.match(said, /Cookie|cookie/, l);
    }
  });
});
