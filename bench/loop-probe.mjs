/**
 * Loaded into a benchmarked server (`node --import bench/loop-probe.mjs …`) when BENCH_PROBE_FILE is set: the longest
 * event-loop turn (the largest delay of a 1 ms timer, which waits for whatever turn runs when it is due) and the
 * garbage collector's pauses, since the last SIGUSR2. At each SIGUSR2 it writes them to that file and starts again:
 * the bench signals once before its measured seconds and once after them.
 *
 * On Linux it also tells how much of the longest turn the server's own thread ran (its run time in
 * /proc/self/task/<pid>/schedstat across the longest gap between two ticks of a 1 ms interval): on a core shared with
 * V8's helper threads, a turn can last several times the work the event loop did in it, the rest spent waiting for the core.
 * The interval reads one small file a millisecond, a few microseconds, in every server measured alike.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { setInterval } from 'node:timers';
import { constants, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.BENCH_PROBE_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let gc = { ms: 0, count: 0, longestMs: 0, majorMs: 0 };
  let since = performance.now();
  const schedstat = `/proc/self/task/${process.pid}/schedstat`;
  const ranNs = () => {
    try {
      return Number(readFileSync(schedstat, 'latin1').split(' ')[0]);
    } catch {
      return undefined;
    }
  };
  let tick = { at: performance.now(), ran: ranNs() };
  let longestGap = { ms: 0, ranMs: undefined };
  if (tick.ran !== undefined) {
    setInterval(() => {
      const now = { at: performance.now(), ran: ranNs() };
      if (now.at - tick.at > longestGap.ms) longestGap = { ms: now.at - tick.at, ranMs: now.ran === undefined || tick.ran === undefined ? undefined : (now.ran - tick.ran) / 1e6 };
      tick = now;
    }, 1).unref();
  }
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.ms += entry.duration;
      gc.count++;
      gc.longestMs = Math.max(gc.longestMs, entry.duration);
      // NODE_PERFORMANCE_GC_MAJOR: a mark-compact of the old generation.
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.majorMs += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('SIGUSR2', () => {
    const seconds = (performance.now() - since) / 1000;
    writeFileSync(file, JSON.stringify({ seconds, longestTurnMs: delay.max / 1e6, longestTurnRanMs: longestGap.ranMs, gcMs: gc.ms, gcCount: gc.count, gcLongestMs: gc.longestMs, gcMajorMs: gc.majorMs }));
    delay.reset();
    longestGap = { ms: 0, ranMs: undefined };
    gc = { ms: 0, count: 0, longestMs: 0, majorMs: 0 };
    since = performance.now();
  });
}
