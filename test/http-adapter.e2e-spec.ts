import { createServer } from 'node:http';
import { Socket } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_FIELDS } from '../src/app.module.js';
import { ApiExpressAdapter, ApiResponse } from '../src/platform/http/http-adapter.js';
import { RequestObservers } from '../src/platform/http/index.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

/** Set only on a request refused by a pipe, under a name private to Nest. */
const UNDECLARED = new Set(['Symbol(nestjs:rejected-by-pipes)']);

/** The tests' response checker (support/openapi-responses.ts) wraps these on each response. */
const TEST_ONLY = new Set(['write', 'end']);

const layout = (value: object) =>
  Reflect.ownKeys(value)
    .map(String)
    .filter((name) => !UNDECLARED.has(name) && !TEST_ONLY.has(name));

/** The properties, in order, of a request and response as Node's server hands them to an application. */
async function bareExchange(): Promise<{ request: string[]; response: string[] }> {
  let done: (value: { request: string[]; response: string[] }) => void;
  const result = new Promise<{ request: string[]; response: string[] }>(
    (resolve) => (done = resolve),
  );
  const server = createServer(
    {
      IncomingMessage: new ApiExpressAdapter(REQUEST_FIELDS).ApiRequest,
      ServerResponse: ApiResponse,
    },
    (req, res) => {
      done({ request: layout(req), response: layout(res) });
      res.end('{}');
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await request(server).get('/').expect(200);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return result;
}

describe('ApiExpressAdapter', () => {
  let t: TestApp;
  let key: string;
  const seen: { request: string[]; response: string[] }[] = [];
  let built: { request: string[]; response: string[] };

  beforeAll(async () => {
    t = await createTestApp();
    key = await t.createKey({ plan: 'free' });
    await t.seed([{ petId: 1n, name: 'Rex', quantity: 3, status: 'available' }]);
    // As Node's server hands them over: anything set on them later must have been declared.
    built = await bareExchange();
    t.app.get(RequestObservers).add({
      finished(req, res) {
        seen.push({ request: layout(req), response: layout(res) });
      },
    });
  });

  afterAll(async () => {
    await t.close();
  });

  it('should end every request and response with the properties, in the order, they were built with', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    await request(t.server).get('/v1/inventory').set(auth).expect(200);
    await request(t.server).patch('/v1/inventory/1').set(auth).send({ quantity: 4 }).expect(200);
    await request(t.server)
      .patch('/v1/inventory/1')
      .set(auth)
      .send({ quantity: 'four' })
      .expect(400);
    await request(t.server).get('/v1/pets/1').set(auth).expect(200);
    await request(t.server).get('/v1/inventory').expect(401);
    await request(t.server).get('/v1/nothing').set(auth).expect(404);
    await request(t.server).get('/health').expect(200);

    expect(seen).toHaveLength(7);
    for (const exchange of seen) expect(exchange).toEqual(built);
  });

  it('should hand a response the options Node gives its constructor', () => {
    const req = new new ApiExpressAdapter([]).ApiRequest(new Socket());
    expect(new ApiResponse(req, { highWaterMark: 1234 }).writableHighWaterMark).toBe(1234);
    expect(new ApiResponse(req).statusCode).toBe(200);
  });

  it('should refuse the server options it does not serve', () => {
    expect(() => new ApiExpressAdapter([]).initHttpServer({ httpsOptions: {} })).toThrow(
      /plain HTTP/,
    );
    expect(() => new ApiExpressAdapter([]).initHttpServer({ forceCloseConnections: true })).toThrow(
      /plain HTTP/,
    );
  });
});
