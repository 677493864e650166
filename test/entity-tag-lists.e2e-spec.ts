import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/create-test-app.js';

/** RFC 9110 §13.1.1: If-Match and If-None-Match carry entity-tag lists, a comma in quotes included. */
describe('entity-tag lists in If-Match and If-None-Match (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    key = await t.createKey();
    await t.seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: 5 }]);
  });

  const auth = (test: request.Test) => test.set('Authorization', `Bearer ${key}`);
  const itemEtag = async () =>
    (await auth(request(t.server).get('/v1/inventory/1')).expect(200)).headers.etag as string;
  const patch = (ifMatch: string, quantity: number) =>
    auth(request(t.server).patch('/v1/inventory/1')).set('If-Match', ifMatch).send({ quantity });

  it('should read a tag with a comma inside its quotes as one tag, on PATCH', async () => {
    const refused = await patch('"a,b"', 4).expect(412);
    expect(refused.body).toMatchObject({ code: 'precondition_failed', status: 412 });

    const etag = await itemEtag();
    const res = await patch(`W/"x,y", "a,b" , ${etag},`, 4).expect(200);
    expect(res.body).toEqual({ petId: 1, quantity: 4, status: 'available', available: 4 });
  });

  it('should compare If-Match strongly: the current tag marked weak does not match', async () => {
    const etag = await itemEtag();
    await patch(`W/${etag}`, 3).expect(412);
    expect((await auth(request(t.server).get('/v1/inventory/1'))).body.quantity).toBe(5);
  });

  it('should refuse a malformed If-Match or `*` inside a list with 400', async () => {
    for (const field of ['"a,b', '*, "a"', '"a" "b"', 'W/ "a"']) {
      const res = await patch(field, 3).expect(400);
      expect(res.body, field).toMatchObject({ code: 'validation_failed', status: 400 });
    }
  });

  it('should answer If-None-Match on the listing with 304 when any tag of the list matches, weakly', async () => {
    const list = (ifNoneMatch?: string) => {
      const test = auth(request(t.server).get('/v1/inventory'));
      return ifNoneMatch === undefined ? test : test.set('If-None-Match', ifNoneMatch);
    };
    const { etag } = (await list().expect(200)).headers;
    await list(`"a,b", W/${etag}`).expect(304);
    await list(`"a,b"`).expect(200);
    await list(`W/"a,${etag.slice(1)}`).expect(200);
  });
});
