/**
 * Content-Security-Policy of the screens: same-origin scripts only, no eval (pixi.js runs with its
 * `unsafe-eval` polyfill module instead), connections only to `connect` (in browser mode the
 * host's WebSocket; inside Electron nothing, the host is reached over a MessagePort).
 */
export function screenCsp(connect: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    ["connect-src 'self'", ...connect].join(' '),
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Hosts a request may name: defeats DNS rebinding against the loopback server. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}
