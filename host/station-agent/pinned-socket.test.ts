// The largest frame a table may send a station agent (a security review of the agent): the agent's
// sockets took ws's default of 100 MiB, and the table relay turns a frame into a string before its
// flood check, so a hostile table the station joined cost the agent hundreds of MB per frame. A
// table's frame past the agent's cap now closes the link (1009) before it is buffered whole.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { WebSocketServer } from 'ws';
import { tableCertificate } from '../stadium/table-certificate.js';
import { MAX_TABLE_FRAME, pinnedAgent, pinnedSocket } from './pinned-socket.js';

describe("a station agent's links to a table", { timeout: 30_000 }, () => {
  for (const route of ['/ws', '/station-device'] as const)
    it(`${route}: a frame over ${MAX_TABLE_FRAME[route] / 1024} KiB from the table closes the link, and is never delivered`, async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'pinned-frame-'));
      const certificate = await tableCertificate(dir, 'T1', ['127.0.0.1']);
      const server = createServer({ key: certificate.key, cert: certificate.cert });
      const wss = new WebSocketServer({ server, maxPayload: 1 << 30 });
      let told: number | null = null;
      wss.on('connection', (s) => {
        s.on('close', (c) => (told = c));
        s.send('x'.repeat(2 * MAX_TABLE_FRAME[route]));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const port = (server.address() as { port: number }).port;
      const enrolment = {
        v: 1 as const,
        tableId: 'T1',
        station: 101,
        secret: 's'.repeat(43),
        host: `https://127.0.0.1:${port}`,
        certificate: certificate.cert,
        fingerprint: certificate.fingerprint,
      };
      const agent = pinnedAgent(enrolment);
      const ws = pinnedSocket(enrolment, agent, route);
      ws.on('error', () => undefined);
      try {
        const outcome = await new Promise<string>((resolve) => {
          ws.once('message', (d: Buffer) => resolve(`${d.length} bytes delivered`));
          ws.once('close', (c) => resolve(`closed ${c}`));
        });
        // The agent fails the link (1006 on its side) and tells the table why: 1009, message too big.
        for (let i = 0; i < 200 && told === null; i++) await new Promise((r) => setTimeout(r, 25));
        console.log(`${route}: a frame of ${(2 * MAX_TABLE_FRAME[route]) / 1024} KiB: ${outcome}, the table told ${told}`);
        assert.equal(outcome, 'closed 1006', 'the link failed, nothing delivered');
        assert.equal(told, 1009, 'message too big');
      } finally {
        ws.terminate();
        agent.destroy();
        for (const c of wss.clients) c.terminate();
        wss.close();
        await new Promise((r) => server.close(r));
        rmSync(dir, { recursive: true, force: true });
      }
    });
});
