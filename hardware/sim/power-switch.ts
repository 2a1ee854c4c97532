/**
 * The mains of a simulated device. A cut is made now, or armed for a named step of the device's
 * mechanism (a note stacking, a card leaving the shoe) so a test can cut at exactly that point;
 * power comes back by hand or after a delay, as an attendant or the UPS would bring it back.
 */
export class PowerSwitch<Step extends string = string> {
  private on = true;
  private armed: { step: Step; restoreAfterMs?: number } | null = null;
  private restoreTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly device: { lost(): void; restored(): void }) {}

  get isOn(): boolean {
    return this.on;
  }

  /** Whether a cut is armed for `step`. */
  armedFor(step: Step | undefined): boolean {
    return step !== undefined && this.armed?.step === step;
  }

  /** Cuts now, or when the device reaches `at`; back after `restoreAfterMs` if given. */
  cut(options: { at?: Step; restoreAfterMs?: number } = {}): void {
    const { at, restoreAfterMs } = options;
    if (at !== undefined) {
      this.armed = { step: at, ...(restoreAfterMs !== undefined ? { restoreAfterMs } : {}) };
      return;
    }
    this.on = false;
    this.device.lost();
    if (restoreAfterMs !== undefined) this.restoreTimer = setTimeout(() => this.restore(), restoreAfterMs);
  }

  /** Makes the armed cut now (the device has reached its step). */
  fireArmed(): void {
    const restoreAfterMs = this.armed?.restoreAfterMs;
    this.armed = null;
    this.cut(restoreAfterMs !== undefined ? { restoreAfterMs } : {});
  }

  restore(): void {
    if (this.restoreTimer) clearTimeout(this.restoreTimer);
    this.restoreTimer = null;
    if (this.on) return;
    this.on = true;
    this.device.restored();
  }
}
