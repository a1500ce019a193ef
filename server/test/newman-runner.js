// newman (Postman's own runner) in one child process for a whole test file: each run arrives over IPC, is run by
// newman's library (the runtime its CLI drives) and is answered with the exit code its CLI would give. Plain
// JavaScript in its own process because newman is CommonJS and jest runs ESM here; one process because loading
// newman costs about a second of CPU, which three processes paid three times.
import newman from 'newman';

process.on('message', ({ id, collection, environment, folder, reportFile }) => {
  const options = { collection, environment, timeoutRequest: 10_000, reporters: ['json'], reporter: { json: { export: reportFile } }, ...(folder ? { folder } : {}) };
  newman.run(options, (error, summary) => {
    // As newman's CLI: 1 when the run broke or any assertion failed.
    const code = error || summary.run.error || summary.run.failures.length > 0 ? 1 : 0;
    process.send({ id, code, error: error ? String(error.stack ?? error) : undefined });
  });
});
