// The stadium bench's baseline, in a process of its own (its CPU time and memory are the bare
// figures): a plain `ws` server over the table's own TLS certificate, broadcasting a message of a
// given size to the same clients the table served, nothing else. It runs after the table host of
// the same size has exited, on the same cores, so neither takes the other's CPU.
import https from 'node:https';
import { WebSocketServer } from 'ws';
import { tableCertificate } from '../../host/stadium/table-certificate.js';
import type { FromBare, ToBare } from './messages.js';
import { bareRoundPatch } from './round-stamp.js';

const send = (m: FromBare) => void (process.connected && process.send?.(m));
const arg = JSON.parse(process.env.STADIUM_BARE ?? '{}') as { dataDir: string; tableId: string };

// The certificate the table made in its data folder, which every client pins.
const cert = await tableCertificate(arg.dataDir, arg.tableId, ['127.0.0.1']);
const server = https.createServer({ key: cert.key, cert: cert.cert });
const bare = new WebSocketServer({ server, perMessageDeflate: false });
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const address = server.address();
const rssIdle = process.memoryUsage().rss;

process.on('message', (m: ToBare) => {
  void handle(m);
});
// The bench gone (its IPC channel closed, even by SIGKILL): nothing is left to serve.
process.on('disconnect', () => process.exit(0));

async function handle(m: ToBare): Promise<void> {
  if (m.type === 'broadcast') {
    const rssConnected = process.memoryUsage().rss;
    let rss = rssConnected;
    const times: { seq: number; t0: string; sent: string }[] = [];
    const cpu0 = process.cpuUsage();
    for (let seq = 1; seq <= m.count; seq++) {
      // A round's patch of the card's size: its clients stamp and decode it as the table's do a card's round.
      const bytes = bareRoundPatch(seq, m.bytes);
      const t0 = process.hrtime.bigint();
      for (const c of bare.clients) c.send(bytes, { binary: false });
      times.push({ seq, t0: String(t0), sent: String(process.hrtime.bigint()) });
      rss = Math.max(rss, process.memoryUsage().rss);
      await new Promise((r) => setTimeout(r, m.gapMs));
    }
    const cpu = process.cpuUsage(cpu0);
    send({ type: 'done', times, clients: bare.clients.size, cpuMs: (cpu.user + cpu.system) / 1000, rssIdle, rss });
  } else if (m.type === 'stop') {
    for (const c of bare.clients) c.terminate();
    bare.close();
    server.close();
    process.exit(0);
  }
}

send({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
