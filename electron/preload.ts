// The sandboxed preload: one typed API, nothing else of Electron reaches the page.
import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_PORT_MESSAGE, type KioskBridge } from '../protocol/preload-api.js';
import type { ViewName } from '../protocol/views.js';
import { IPC } from './ipc-channels.js';

const bridge: KioskBridge = {
  launch: () => ipcRenderer.invoke(IPC.launch) as Promise<{ view: ViewName; token: string }>,
  requestPort: () => ipcRenderer.send(IPC.requestPort),
};

// A MessagePort cannot cross the context bridge as an argument; it is transferred to the page
// with window.postMessage, the pattern Electron documents for main-world ports.
ipcRenderer.on(IPC.port, (event) => {
  window.postMessage(BRIDGE_PORT_MESSAGE, '*', event.ports);
});

contextBridge.exposeInMainWorld('kioskBridge', bridge);
