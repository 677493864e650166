import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/*
 * Preloaded (`node --import`) into every benchmarked server, ours and the baselines alike, so
 * the figures come from inside the process without a hook in the product. The histogram's
 * timer fires every 10 ms; its maximum delay is the longest stretch the loop was blocked (or
 * the process was not scheduled at all, on a busy machine). The bench asks over the IPC
 * channel it opened when spawning the server.
 */
interface ProbeRequest {
  probe: 'read';
  reset?: boolean;
  /** Collect garbage first, so that memory figures show what is retained. */
  gc?: boolean;
}

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

if (process.send) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  process.on('message', (message: ProbeRequest) => {
    if (message?.probe !== 'read') return;
    if (message.gc) collectGarbage();
    const memory = process.memoryUsage();
    process.send!({
      probe: 'report',
      maxMs: delay.max / 1e6,
      p99Ms: delay.percentile(99) / 1e6,
      rss: memory.rss,
      heapUsed: memory.heapUsed,
    });
    if (message.reset) delay.reset();
  });
  // The channel must not keep a server alive that was told to stop.
  process.channel?.unref();
}
