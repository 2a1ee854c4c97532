/**
 * SQLite's own words for a file that is not a database, or one damaged past reading its header
 * ("file is not a database"), name no file: the host's start said only that. What to say instead,
 * naming the file, or null for any other error (those name what they need themselves).
 */
export function unreadableFileSaid(e: unknown, file: string): string | null {
  const code = (e as { code?: unknown }).code;
  if (code !== 'SQLITE_NOTADB' && code !== 'SQLITE_CORRUPT') return null;
  const message = e instanceof Error ? e.message : String(e);
  return `${file} is not a SQLite database, or is damaged past reading (${message}): restore the data folder from its backup`;
}
