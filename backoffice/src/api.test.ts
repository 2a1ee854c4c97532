import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { api, ApiError } from './api.js';

// What a proxy between the page and the upstream may answer in its place: its own HTML page of a
// 502, a 401 of its sign-in, a 200 of a captive portal. The page parsed every answer as JSON before
// it looked at the status, so each was the engine's SyntaxError in English ("Could not load:
// Unexpected token '<', "<html>…" is not valid JSON"), and a 401 did not bring the sign-in form back.
describe("an answer that is not the upstream's JSON", () => {
  const real = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = real;
  });
  const answering = (status: number, body: string) => {
    globalThis.fetch = async () => new Response(body, { status, headers: { 'content-type': 'text/html' } });
  };

  it('is an ApiError with its status, whatever its body', async () => {
    for (const status of [401, 404, 502, 503]) {
      answering(status, '<html><body>Bad gateway</body></html>');
      await assert.rejects(api.floor(), (e: unknown) => e instanceof ApiError && e.status === status && e.code === 'http', String(status));
    }
  });

  it('is an ApiError when a 200 is no JSON, or not of its shape', async () => {
    answering(200, '<html>portal</html>');
    await assert.rejects(api.floor(), (e: unknown) => e instanceof ApiError && e.status === 200 && e.code === 'unreadable');
    answering(200, '{"not":"rows"}');
    await assert.rejects(api.floor(), (e: unknown) => e instanceof ApiError && e.status === 200 && e.code === 'unreadable');
  });

  it("reads the upstream's own refusal by its code", async () => {
    answering(404, '{"error":"no-table","message":"no such terminal"}');
    await assert.rejects(api.table('T9'), (e: unknown) => e instanceof ApiError && e.status === 404 && e.code === 'no-table');
  });
});
