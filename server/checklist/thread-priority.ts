/**
 * A checklist run's worker thread yields the CPU to the sandbox's event loop. On a hosted sandbox on one core, a
 * partner's runs back to back (their digests and reports) took the core from the thread that answers every other
 * partner: in the load test, partner B's p99 beside them was up to 3.3 times its p99 alone. A thread of a lower
 * priority runs when the event loop waits, which is most of the time.
 *
 * On Linux a thread is a task with an id of its own (/proc/thread-self names it), and setpriority on that id sets
 * the thread's nice value alone. Elsewhere (or where /proc is not mounted) the run keeps the process's priority.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** How much lower than the process a run's thread runs: nice 10, as `nice` gives a command by default. */
export const RUN_THREAD_NICE = 10;

/** Lowers the calling thread's priority (Linux); whether it could. */
export function lowerThisThreadsPriority(nice = RUN_THREAD_NICE): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
