// A station agent's device link that closes while the journal refuses a write (SQLITE_FULL) took
// the host process down (a review of 2 December, H1). lan-server.ts:199 wires `socket.on('close', () =>
// device.dispose())`; dispose → RemoteAcceptors.closed → onEvent(disconnected) →
// tilts.raise('bill-acceptor-lost') → ledger.append throws, inside ws's 'close' listener.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { childCase, heldKinds, runInChild } from '../testing/in-child.js';

if (childCase()) {
  const pino = (await import('pino')).default;
  const { WebSocketServer, WebSocket } = await import('ws');
  const { Ledger } = await import('../../ledger/index.js');
  const { TiltManager } = await import('../tilts/tilt-manager.js');
  const { onBillAcceptorEvent } = await import('../tilts/tilt-sources.js');
  const { refusingOnce } = await import('../testing/refusing-ledger.js');
  const { RemoteAcceptors } = await import('./remote-acceptors.js');
  const { noNoteMoves } = await import('../testing/no-note-moves.js');
  const { DEVICE_PROTOCOL_VERSION } = await import('../../protocol/index.js');
  const log = pino({ level: 'silent' });
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-ZZ' });
  const tilts = new TiltManager({ ledger, log });
  const acceptors = new RemoteAcceptors({
    ledger,
    log,
    credits: noNoteMoves(),
    stations: { verify: () => true, onRevoked: () => () => undefined },
    hasStation: () => true,
    accepted: () => [100],
    onEvent: (station, e) => onBillAcceptorEvent(tilts, station, e),
  });
  const wss = new WebSocketServer({ port: 0 });
  wss.on('connection', (socket) => {
    // As lan-server.ts serveDevices wires it.
    const device = acceptors.open(
      (text) => socket.send(text),
      (c, r) => socket.close(c, r),
    );
    socket.on('message', (data) => device.receive(String(data)));
    socket.on('close', () => device.dispose());
  });
  await new Promise((r) => wss.once('listening', r));
  const port = (wss.address() as { port: number }).port;
  const agent = new WebSocket(`ws://127.0.0.1:${port}`);
  agent.on('message', (data) => {
    const m = JSON.parse(String(data)) as { type: string };
    if (m.type !== 'device-welcome') return;
    console.log('greeted; the disk fills; the agent disconnects');
    refusingOnce(ledger, 'tilt.raise');
    agent.close();
  });
  agent.on('open', () =>
    agent.send(JSON.stringify({ type: 'hello-device', protocol: DEVICE_PROTOCOL_VERSION, station: 101, secret: 'x'.repeat(40), acceptor: 'id003' })),
  );
  setTimeout(() => {
    console.log('host still alive; faults:', heldKinds(tilts));
    process.exit(0);
  }, 1500);
} else {
  describe('a station agent disconnects while the journal is full', () => {
    it('the host process survives and the acceptor loss is held', () => {
      const r = runInChild(import.meta.url, { timeoutMs: 20_000 });
      assert.equal(r.status, 0, 'the host process died');
      assert.match(r.stdout, /host still alive; faults: bill-acceptor-lost\n/);
    });
  });
}
