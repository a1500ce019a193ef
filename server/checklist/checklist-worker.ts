/**
 * The entry of a checklist run's worker thread (checklist-job.ts): built to dist/ like the bins, and started by
 * ChecklistRuns with the run as its workerData. It ends with the run: its sockets (fetch keeps them alive) go with it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runChecklistJob, type ChecklistJob } from './checklist-job.js';
import { lowerThisThreadsPriority } from './thread-priority.js';

// The sandbox's event loop answers every partner; a run takes the CPU only when it waits (thread-priority.ts).
lowerThisThreadsPriority();
await runChecklistJob(workerData as ChecklistJob, (message) => parentPort!.postMessage(message));
process.exit(0);
