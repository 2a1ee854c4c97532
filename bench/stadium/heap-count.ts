// What a stadium bench client process's collector did over a stretch (the measure, the bare
// broadcast): how many scavenges and full collections, their pauses, and how many bytes the
// process allocated on its heap meanwhile. The pauses are wall time (a process the scheduler
// sets aside mid-collection counts the wait too: on a loaded machine they say little); the counts
// and the bytes allocated do not depend on the load, and are what to compare between runs.
import v8 from 'node:v8';

export interface HeapCount {
  /** The collections' pauses on the main thread, summed (V8's `cost`: wall time), ms. */
  ms: number;
  /** Scavenges (and minor mark-sweeps). */
  minor: number;
  /** Full collections (mark-sweep-compact). */
  major: number;
  /** Bytes allocated on the V8 heap: each collection's heap before it less the heap after the one before. */
  allocated: number;
}

const MINOR = new Set(['Scavenge', 'MinorMarkSweep']);

/** Counts from now until `stop()`. */
export function countHeap(): { stop(): HeapCount } {
  const profiler = new v8.GCProfiler();
  const usedAtStart = v8.getHeapStatistics().used_heap_size;
  profiler.start();
  return {
    stop() {
      const { statistics } = profiler.stop();
      const count: HeapCount = { ms: 0, minor: 0, major: 0, allocated: 0 };
      let after = usedAtStart;
      for (const s of statistics) {
        count.allocated += Math.max(0, s.beforeGC.heapStatistics.usedHeapSize - after);
        after = s.afterGC.heapStatistics.usedHeapSize;
        count.ms += s.cost / 1000;
        if (MINOR.has(s.gcType)) count.minor++;
        else if (s.gcType === 'MarkSweepCompact') count.major++;
      }
      count.allocated += Math.max(0, v8.getHeapStatistics().used_heap_size - after);
      return count;
    },
  };
}
