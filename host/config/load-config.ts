import { readFileSync } from 'node:fs';
import { TableConfig } from './table-config.js';

/** A configuration file that cannot be used; the message says which file and what is wrong. */
export class ConfigFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigFileError';
  }
}

/** The issues of a failed parse as `path: message` lines, the form a technician can act on. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `  ${i.path.length ? i.path.map(String).join('.') : '(top level)'}: ${i.message}`).join('\n');
}

/** Reads and validates a table configuration (`--config path`); nothing starts on a bad file. */
export function loadTableConfigFile(file: string): TableConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigFileError(`cannot read the table configuration ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  return parseTableConfigText(text, file);
}

/** The text of a configuration file → a valid configuration, or ConfigFileError (fuzzed in tests/fuzz/). */
export function parseTableConfigText(text: string, file: string): TableConfig {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConfigFileError(`the table configuration ${file} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = TableConfig.safeParse(data);
  if (!parsed.success) throw new ConfigFileError(`the table configuration ${file} is not valid:\n${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}
