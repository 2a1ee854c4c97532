// A validation authority that lies in every way its protocol lets it (issue 47 item 6): an HTTP
// proxy in front of the upstream whose behaviour is chosen per request, by its path and body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Behaviour =
  | { readonly kind: 'pass' }
  /** Forward, let the upstream decide, then answer `ms` later (after the table's deadline). */
  | { readonly kind: 'late'; readonly ms: number }
  /** Forward, let the upstream decide, never answer. */
  | { readonly kind: 'never' }
  /** Drop the request: the upstream never hears it, the table never hears back. */
  | { readonly kind: 'drop' }
  /** Forward the same signed request twice at once; answer the `answer`-th reply (0 or 1). */
  | { readonly kind: 'twice'; readonly answer: 0 | 1 }
  /** Answer this instead of asking the upstream. */
  | { readonly kind: 'forge'; readonly status: number; readonly body: unknown };

export class HostileProxy {
  private readonly server: http.Server;
  private readonly held: http.ServerResponse[] = [];
  /** What reached the proxy, by path. */
  readonly seen: string[] = [];

  constructor(
    private readonly target: string,
    public choose: (path: string, body: Record<string, unknown>) => Behaviour = () => ({ kind: 'pass' }),
  ) {
    // A forward that fails (the upstream closed under a held request) ends that connection, nothing else.
    this.server = http.createServer((req, res) => void this.handle(req, res).catch(() => res.destroy()));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const a = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${a.port}`;
  }

  async close(): Promise<void> {
    for (const r of this.held) r.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async forward(req: http.IncomingMessage, body: Buffer): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers[k] = v;
    const r = await fetch(`${this.target}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(req.method === 'POST' ? { body: new Uint8Array(body) } : {}),
    });
    return { status: r.status, text: await r.text() };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const path = req.url ?? '/';
    this.seen.push(path);
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(raw.toString() || '{}');
      if (typeof parsed === 'object' && parsed !== null) body = Object.fromEntries(Object.entries(parsed));
    } catch {
      body = {};
    }
    const b = this.choose(path, body);
    const send = (r: { status: number; text: string }): void => void res.writeHead(r.status, { 'content-type': 'application/json' }).end(r.text);
    switch (b.kind) {
      case 'pass':
        return send(await this.forward(req, raw));
      case 'late': {
        const r = await this.forward(req, raw);
        await new Promise((resolve) => setTimeout(resolve, b.ms));
        if (!res.destroyed) send(r);
        return;
      }
      case 'never':
        await this.forward(req, raw);
        this.held.push(res);
        return;
      case 'drop':
        this.held.push(res);
        return;
      case 'twice': {
        const both = await Promise.all([this.forward(req, raw), this.forward(req, raw)]);
        return send(both[b.answer]);
      }
      case 'forge':
        return send({ status: b.status, text: JSON.stringify(b.body) });
    }
  }
}
