// The browser's two ways to reach the host: a WebSocket in browser mode, a MessagePort inside Electron.
import type { Transport } from './transport-contract.js';

export type { Transport };

export function webSocketTransport(url: string): Promise<Transport> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.addEventListener('error', () => reject(new Error(`cannot reach ${url}`)), { once: true });
    ws.addEventListener('open', () =>
      resolve({
        send: (text) => ws.send(text),
        onMessage: (h) => ws.addEventListener('message', (e) => h(e.data)),
        onClose: (h) => ws.addEventListener('close', () => h()),
        close: () => ws.close(),
      }),
    );
  });
}

export function messagePortTransport(port: MessagePort): Transport {
  const closers: (() => void)[] = [];
  port.start();
  return {
    send: (text) => port.postMessage(text),
    onMessage: (h) => port.addEventListener('message', (e) => h(e.data)),
    // MessagePort has no close event everywhere; Electron fires 'close' on the port when the host goes.
    onClose: (h) => {
      closers.push(h);
      port.addEventListener('close', () => h());
    },
    close: () => {
      port.close();
      for (const c of closers) c();
    },
  };
}
