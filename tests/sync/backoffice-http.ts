// Test-only: a browser's sign-in to a running upstream's back office over HTTP (the tests under
// tests/sync start the real server; tests/security/backoffice-kit.ts signs in through `inject`).
import assert from 'node:assert/strict';

export interface HttpSession {
  /** The session cookie as the browser sends it back (`name=value`). */
  cookie: string;
  /** The CSRF token every POST carries. */
  csrf: string;
}

/** Signs `name` in at `url` (the upstream's origin); a refused sign-in fails the test. */
export async function signInHttp(url: string, name: string, password: string): Promise<HttpSession> {
  const r = await fetch(`${url}/backoffice/api/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password }),
  });
  assert.equal(r.status, 200, `sign-in of ${name}`);
  const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const body: unknown = await r.json();
  assert.ok(typeof body === 'object' && body !== null && 'csrf' in body && typeof body.csrf === 'string', 'a CSRF token');
  return { cookie, csrf: body.csrf };
}

/** A POST of JSON as the page sends it (the session's cookie and CSRF token); an answer other than 200 fails the test. */
export async function postHttp(url: string, s: HttpSession, path: string, body: unknown = {}): Promise<unknown> {
  const res = await fetch(`${url}/backoffice/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: s.cookie, 'x-csrf-token': s.csrf },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return res.json();
}
