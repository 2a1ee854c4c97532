import type { LineSettings } from '../transport/byte-port.js';

/**
 * The device end of a wire: what a byte-level simulator exposes to whatever carries its bytes
 * (a fake USB bridge, a TCP listener, an in-memory loopback).
 */
export interface DeviceSide {
  /** The UART settings the device expects; a bridge set otherwise garbles the bytes both ways. */
  readonly line: LineSettings;
  /** Bytes from the host. */
  receive(bytes: Uint8Array): void;
  /** Where the device's bytes go; null while nothing is attached (unplugged, no client). */
  attach(sink: ((bytes: Uint8Array) => void) | null): void;
}

/** Base for simulators: queues output to the attached sink asynchronously, like a real UART. */
export abstract class ByteDevice implements DeviceSide {
  abstract readonly line: LineSettings;
  private sink: ((bytes: Uint8Array) => void) | null = null;

  attach(sink: ((bytes: Uint8Array) => void) | null): void {
    this.sink = sink;
  }

  get attached(): boolean {
    return this.sink !== null;
  }

  abstract receive(bytes: Uint8Array): void;

  protected transmit(bytes: Uint8Array): void {
    const sink = this.sink;
    if (!sink || bytes.length === 0) return;
    setImmediate(() => {
      if (this.sink === sink) sink(bytes);
    });
  }
}
