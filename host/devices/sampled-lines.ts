/**
 * Where a device's repeated lines go: sampled per kind (the host's SampledLog, host/logging/, which
 * the devices layer does not import; the host's start wires it). A device sending one bad message
 * after another wrote a warn line each (a review of the shoe and printer drivers).
 */
export interface SampledLines {
  warn(kind: string, fields: Record<string, unknown>, msg: string): void;
  /** Says every count still held back. */
  close(): void;
}
