/** A refused entry: nothing of it (nor of its batch) was written. */
export class LedgerRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'LedgerRefusal';
  }
}
