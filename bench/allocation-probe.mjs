/** Loaded with --import when BENCH_ALLOCATION_FILE is set: V8's sampling heap profiler, freed objects counted too; the first SIGWINCH starts it, the second writes the profile. */
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_ALLOCATION_FILE;
if (file) {
  const session = new Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  let sampling = false;
  process.on('SIGWINCH', async () => {
    if (!sampling) {
      sampling = true;
      await post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      writeFileSync(`${file}.started`, '');
    } else {
      const { profile } = await post('HeapProfiler.stopSampling');
      writeFileSync(file, JSON.stringify(profile));
    }
  });
}
