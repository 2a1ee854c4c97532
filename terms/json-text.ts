import type { z } from 'zod';

/**
 * A file's text read as JSON of `schema`, or why not, in words that name the field: what a reader
 * of a file in the data folder (credentials, a registry, an enrolment) puts in its error beside the
 * file's name and what to do. JSON.parse's or zod's words alone named no file.
 */
export function jsonTextAs<T>(text: string, schema: z.ZodType<T>, what: string): { ok: true; data: T } | { ok: false; why: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, why: `it is not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, why: `it is not ${what} (${issuesSaid(parsed.error.issues)})` };
}

/** zod's issues in one line, each at its field's dotted path (`the file` for the whole). */
export function issuesSaid(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => `${i.path.map(String).join('.') || 'the file'}: ${i.message}`).join('; ');
}
