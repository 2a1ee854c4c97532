/**
 * How a screen reaches the host, whatever carries it. Kept apart from the browser transports so
 * that code run in Node (the kill-and-restart harness drives real HostClients) needs no DOM types.
 */
export interface Transport {
  send(text: string): void;
  onMessage(handler: (data: unknown) => void): void;
  onClose(handler: () => void): void;
  close(): void;
}
