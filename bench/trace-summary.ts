// Reads a Chromium trace (the JSON `browser.startTracing` writes) and says where the time went:
// for each process and thread, the events with the most self time (their duration less that of
// the events nested in them on the same thread). The screens bench prints it per table frame when
// BENCH_TRACE is set, to name what a frame costs (docs/benchmarks.md).

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { frames?: { processId?: number; url?: string; parent?: string }[] } };
}

export interface SelfTime {
  process: string;
  thread: string;
  name: string;
  /** Self time over the whole trace, ms. */
  ms: number;
  count: number;
}

/** Self time of every complete event (`X`, or a `B`/`E` pair), grouped by process, thread and name, largest first. */
export function selfTimes(json: string): SelfTime[] {
  const parsed = JSON.parse(json) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const processes = new Map<number, string>();
  const threads = new Map<string, string>();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    if (e.name === 'process_name') processes.set(e.pid, e.args?.name ?? String(e.pid));
    if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name ?? String(e.tid));
  }
  // Two pages of one browser are two processes both named "Renderer": each is named by the page
  // it holds (its top frame's path, as Chromium notes them when tracing starts).
  for (const e of events) {
    if (e.name !== 'TracingStartedInBrowser') continue;
    for (const f of e.args?.data?.frames ?? []) {
      if (f.parent || f.processId === undefined || !f.url) continue;
      const page = f.url.replace(/^[a-z]+:\/\/[^/]+/, '').replace(/[?#].*/, '');
      processes.set(f.processId, `${processes.get(f.processId) ?? 'Renderer'} ${page}`);
    }
  }
  // Spans per thread, from complete events and begin/end pairs.
  const spans = new Map<string, { name: string; ts: number; end: number }[]>();
  const open = new Map<string, { name: string; ts: number }[]>();
  const add = (key: string, name: string, ts: number, end: number) => {
    let list = spans.get(key);
    if (!list) spans.set(key, (list = []));
    list.push({ name, ts, end });
  };
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph === 'X' && e.dur !== undefined) add(key, e.name, e.ts, e.ts + e.dur);
    else if (e.ph === 'B') {
      let stack = open.get(key);
      if (!stack) open.set(key, (stack = []));
      stack.push({ name: e.name, ts: e.ts });
    } else if (e.ph === 'E') {
      const b = open.get(key)?.pop();
      if (b) add(key, b.name, b.ts, e.ts);
    }
  }
  const totals = new Map<string, SelfTime>();
  for (const [key, list] of spans) {
    // Outer spans first: a span's self time is its length less its direct children's.
    list.sort((a, b) => a.ts - b.ts || b.end - a.end);
    const stack: { name: string; ts: number; end: number; children: number }[] = [];
    const close = (s: { name: string; ts: number; end: number; children: number }) => {
      const pid = Number(key.split(':')[0]);
      const id = `${key}|${s.name}`;
      let t = totals.get(id);
      if (!t) totals.set(id, (t = { process: processes.get(pid) ?? String(pid), thread: threads.get(key) ?? key, name: s.name, ms: 0, count: 0 }));
      t.ms += Math.max(0, s.end - s.ts - s.children) / 1000;
      t.count++;
    };
    for (const s of list) {
      while (stack.length && stack[stack.length - 1]!.end <= s.ts) close(stack.pop()!);
      const parent = stack[stack.length - 1];
      if (parent) parent.children += Math.min(s.end, parent.end) - s.ts;
      stack.push({ ...s, children: 0 });
    }
    while (stack.length) close(stack.pop()!);
  }
  return [...totals.values()].sort((a, b) => b.ms - a.ms);
}
