import type { RunningServer } from './built-server.js';

const DEMO_KEY = /Demo API key \(free plan, shown once\): (pk_test_\w+)/;

/** The demo key a development start prints, once that line has arrived (after /health may answer). */
export function demoKey(server: RunningServer): Promise<string> {
  return new Promise((resolve) => {
    const check = () => {
      const found = DEMO_KEY.exec(server.output());
      if (!found) return;
      server.child.stdout.off('data', check);
      resolve(found[1]);
    };
    server.child.stdout.on('data', check);
    check();
  });
}
