export { defineCommand, options } from '../command.js';
export { UsageError } from '../tool.js';

/** Where the witness keeps its head slots and record: its own folder, nobody else's to write. */
export const DIR = { type: 'string', value: 'DIR', help: "the witness's own folder (head slots, record.jsonl)" } as const;
