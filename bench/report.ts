// The benchmarks' machine-readable side. Each bench keeps printing its own lines for people and
// also hands each headline figure to `figure()`, beside a baseline measured in the same run (or a
// note saying why none fits). Under `npm run bench -- --json`, bench/run.ts passes each child a
// file in BENCH_RECORDS; the records are appended to it, one JSON line each, and the runner
// collects them into one report (`BenchReport`) with the machine's facts.
import { appendFileSync } from 'node:fs';
import os from 'node:os';
import { z } from 'zod';

/** The machine's 1, 5 and 15-minute load averages, as a bench prints them beside its figures. */
export const loadAverage = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** `BENCH_QUICK=1` (`npm run bench -- --quick`): a few seconds per bench, for the report's own test; its figures mean nothing. */
export const QUICK = process.env.BENCH_QUICK === '1';

/** A figure's baseline: the same kind of work done bare, measured in the same process of the same run. */
export const Baseline = z.object({ name: z.string().min(1), value: z.number().positive() });
export type Baseline = z.infer<typeof Baseline>;

const RecordFields = z.object({
  /** What was measured, as the bench's own line says it. */
  name: z.string().min(1),
  /** The unit of `value` and of the baseline's value: 'ms', 'commits/s', 'M hands/s', 'MB'… */
  unit: z.string().min(1),
  // Zero is a figure (a still table's frames a second, whose target is zero); below it is broken.
  value: z.number().nonnegative(),
  /** Whether a lower value is better (a time, a size) or a higher one (a rate). */
  better: z.enum(['lower', 'higher']),
  baseline: Baseline.nullable(),
  /**
   * The figure's cost in units of the baseline's: value / baseline for a time, baseline / value
   * for a rate. So 3 means "three times the bare work's cost" whichever way the unit runs; null
   * when there is no baseline.
   */
  ratio: z.number().positive().nullable(),
  /** What the baseline is, or why none fits. */
  note: z.string().optional(),
});

function checkRatio(r: z.infer<typeof RecordFields>, ctx: z.RefinementCtx): void {
  if (r.baseline === null) {
    if (r.ratio !== null) ctx.addIssue({ code: 'custom', path: ['ratio'], message: 'a ratio without a baseline' });
    if (!r.note) ctx.addIssue({ code: 'custom', path: ['note'], message: 'a figure without a baseline must say why none fits' });
    return;
  }
  const expected = ratioOf(r.better, r.value, r.baseline.value);
  if (r.ratio === null || Math.abs(r.ratio - expected) > 1e-9 * expected)
    ctx.addIssue({ code: 'custom', path: ['ratio'], message: `ratio ${r.ratio} is not the figure over its baseline (${expected})` });
}

/** One figure as a bench writes it (the runner adds which bench). */
export const BenchRecord = RecordFields.superRefine(checkRatio);
export type BenchRecord = z.infer<typeof BenchRecord>;

/** One figure in the report. */
export const ReportRecord = RecordFields.extend({ bench: z.string().min(1) }).superRefine(checkRatio);
export type ReportRecord = z.infer<typeof ReportRecord>;

export const BenchReport = z.object({
  format: z.literal(1),
  /** When the run started, ISO 8601. */
  date: z.string().min(1),
  git: z.object({ commit: z.string().nullable(), dirty: z.boolean().nullable() }),
  machine: z.object({
    node: z.string().min(1),
    platform: z.string().min(1),
    arch: z.string().min(1),
    cpus: z.number().int().positive(),
    cpuModel: z.string(),
    memoryMb: z.number().positive(),
    /** 1, 5 and 15-minute load averages when the run started and when it ended: other work on the machine shows here. */
    loadavg: z.object({ start: z.array(z.number()).length(3), end: z.array(z.number()).length(3) }),
  }),
  quick: z.boolean(),
  filters: z.array(z.string()),
  benches: z.array(
    z.object({ file: z.string().min(1), exitCode: z.number().int().nullable(), seconds: z.number().nonnegative(), records: z.number().int().nonnegative() }),
  ),
  records: z.array(ReportRecord),
});
export type BenchReport = z.infer<typeof BenchReport>;

export function ratioOf(better: 'lower' | 'higher', value: number, baseline: number): number {
  return better === 'lower' ? value / baseline : baseline / value;
}

export interface FigureInput {
  name: string;
  unit: string;
  value: number;
  better: 'lower' | 'higher';
  baseline: Baseline | null;
  note?: string;
}

/**
 * Records a figure: computes its ratio, checks it against the schema and, under the runner's
 * `--json`, appends it to the child's records file. Returns the record so the bench can print
 * the ratio. A figure that is negative or not a finite number (a broken measurement) throws: a
 * report never carries a NaN.
 */
export function figure(f: FigureInput): BenchRecord {
  const record = BenchRecord.parse({
    ...f,
    ratio: f.baseline ? ratioOf(f.better, f.value, f.baseline.value) : null,
  });
  const file = process.env.BENCH_RECORDS;
  if (file) appendFileSync(file, `${JSON.stringify(record)}\n`);
  return record;
}

/** "3.1×" for a record with a ratio. */
export function times(r: BenchRecord): string {
  return r.ratio === null ? 'no baseline' : `${r.ratio.toFixed(r.ratio < 10 ? 2 : 1)}×`;
}
