import { createTestApp, type TestApp } from '../../../test/support/create-test-app.js';

export interface LiveServer extends TestApp {
  /** The base address of the listening server, ending in /v1. */
  baseUrl: string;
}

/** The real AppModule, listening on a random port of 127.0.0.1, for clients that speak HTTP. */
export async function startLiveServer(env: Record<string, string> = {}): Promise<LiveServer> {
  const t = await createTestApp(env);
  await t.app.listen(0, '127.0.0.1');
  const address = t.app.getHttpServer().address();
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
  return { ...t, baseUrl: `http://127.0.0.1:${address.port}/v1` };
}
