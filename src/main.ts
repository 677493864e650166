// The entry point: checks the runtime, starts tracing when asked, then loads the server. The
// server is imported only afterwards, so that tracing's hooks see every module it loads.
import { nodeVersionProblem } from './runtime/runtime.js';
import { traceExporterProblem, tracingRequested } from './tracing/trace-context.js';

const problem = nodeVersionProblem() ?? traceExporterProblem(process.env);
if (problem) {
  process.stderr.write(`Cannot start the server: ${problem}\n`);
  process.exit(1);
}
if (tracingRequested(process.env)) {
  const { startTracing } = await import('./tracing/tracing.js');
  await startTracing(process.env);
}
await import('./server.js');
