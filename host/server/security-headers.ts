/**
 * Content-Security-Policy of the screens in browser mode: same-origin scripts only, no eval
 * (pixi.js runs with its `unsafe-eval` polyfill module instead), the WebSocket to this host only.
 */
export function screenCsp(origin: string): string {
  const ws = origin.replace(/^http/, 'ws');
  return [
    "default-src 'self'",
    "script-src 'self'",
    `connect-src 'self' ${ws}`,
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
