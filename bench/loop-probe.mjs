/** Loaded with --import when BENCH_PROBE_FILE is set: the longest event-loop turn and the collector's pauses since the last SIGUSR2, written at each; on Linux, how long the thread itself ran in that turn. */
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
