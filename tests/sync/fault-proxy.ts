// An HTTP proxy between the kiosk's sync client and the upstream that misbehaves on demand.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | 'pass'
  /** Drop the connection before forwarding anything. */
  | 'refuse'
  /** Answer 500 without forwarding. */
  | 'error500'
  /** Forward after a delay longer than the client's timeout. */
  | 'slow'
  /** Forward, let the upstream commit, then reset the client's connection: the ack is lost. */
  | 'reset-after'
  /** Forward the same request twice (duplicate delivery), answer with the second reply. */
  | 'duplicate';

export class FaultProxy {
  private server: http.Server;
  port = 0;
  requests = 0;
  readonly seen: Record<Fault, number> = { pass: 0, refuse: 0, error500: 0, slow: 0, 'reset-after': 0, duplicate: 0 };

  constructor(
    private readonly target: string,
    public choose: (n: number) => Fault = () => 'pass',
    private readonly slowMs = 1500,
  ) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  async listen(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return `http://127.0.0.1:${this.port}`;
  }

  /** Stops listening (connection refused) until `listen(this.port)` again. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  private async forward(req: http.IncomingMessage, body: Buffer): Promise<{ status: number; body: string }> {
    const headers: Record<string, string> = {};
    for (const [k, val] of Object.entries(req.headers)) if (typeof val === 'string' && k !== 'host' && k !== 'connection') headers[k] = val;
    const r = await fetch(`${this.target}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(req.method === 'POST' ? { body: new Uint8Array(body) } : {}),
    });
    return { status: r.status, body: await r.text() };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const fault = this.choose(this.requests++);
    this.seen[fault]++;
    const t0 = Date.now();
    if (process.env.DEBUG_PROXY) res.on('close', () => console.error(`proxy ${fault} ${res.statusCode} ${Date.now() - t0}ms`));
    try {
      switch (fault) {
        case 'refuse':
          req.socket.destroy();
          return;
        case 'error500':
          res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"injected"}');
          return;
        case 'slow':
          await new Promise((r) => setTimeout(r, this.slowMs));
          break;
        case 'reset-after':
          await this.forward(req, body);
          req.socket.destroy();
          return;
        case 'duplicate':
          await this.forward(req, body);
          break;
        default:
          break;
      }
      const r = await this.forward(req, body);
      if (!res.destroyed) res.writeHead(r.status, { 'content-type': 'application/json' }).end(r.body);
    } catch {
      if (!res.destroyed) res.writeHead(502).end('{"error":"proxy"}');
    }
  }
}
