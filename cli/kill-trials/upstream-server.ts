import { createServer, type Server } from 'node:http';
import { FakeUpstream } from '../sim-faults/fake-upstream.js';

/**
 * The simulation's model of the casino's ingest (cli/sim-faults/fake-upstream.ts) behind a real
 * HTTP port, in the campaign's parent: it outlives every kill of the target, so a SIGKILL landing
 * mid-request is a real reset on a real socket, and at the end the upstream must hold exactly the
 * local journal.
 */
export class UpstreamServer {
  readonly model: FakeUpstream;
  private readonly server: Server;
  private readonly deliver: typeof fetch;

  private constructor(terminalId: string) {
    this.model = new FakeUpstream(terminalId);
    this.deliver = this.model.fetchWith(() => null);
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
        void this.deliver(`http://upstream${req.url ?? '/'}`, { method: req.method ?? 'POST', headers, body: Buffer.concat(chunks).toString('utf8') }).then(
          async (answer) => {
            res.writeHead(answer.status, { 'content-type': 'application/json' });
            res.end(await answer.text());
          },
        );
      });
      // A kill mid-request: the socket just goes.
      req.on('error', () => res.destroy());
    });
  }

  static async listen(terminalId: string): Promise<UpstreamServer> {
    const s = new UpstreamServer(terminalId);
    await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve));
    return s;
  }

  url(): string {
    const a = this.server.address();
    if (a === null || typeof a === 'string') throw new Error('the upstream model is not listening on a TCP port');
    return `http://127.0.0.1:${a.port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
