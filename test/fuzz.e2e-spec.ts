import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../src/common/errors/error-code.js';
import type { PetStatus } from '../src/inventory/pet-status.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

/*
 * Property-based tests over what the internet can send: path ids, headers and bodies. Every
 * answer must be a success or the Error body whose `status` repeats the HTTP status, never a
 * 5xx; and the stored stock changes only through PATCHes the contract calls valid, which the
 * model below replays. A failure prints fast-check's seed and shrunk counterexample.
 */

const RUNS = { paths: 200, headers: 150, bodies: 300 };
const INT64_MAX = 9223372036854775807n;
const QUANTITY_MAX = 2_147_483_647;
const BODY_LIMIT = 16 * 1024;
const MAX_DEPTH = 32;

interface Stock {
  quantity: number;
  status: PetStatus;
}

const SEED: { petId: bigint; name: string; status: PetStatus; quantity: number }[] = [
  { petId: 1n, name: 'Rex', status: 'available', quantity: 3 },
  { petId: 2n, name: 'Tom', status: 'pending', quantity: 1 },
  { petId: 42n, name: 'Nemo', status: 'sold', quantity: 0 },
  { petId: 9007199254740993n, name: 'Big Ben', status: 'available', quantity: 7 },
  { petId: INT64_MAX, name: 'Max', status: 'pending', quantity: 2 },
];

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

interface Outgoing {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Send the body with Transfer-Encoding: chunked instead of Content-Length. */
  chunked?: boolean;
}

/** A raw HTTP client: sends paths, headers and bytes exactly as given. */
class Client {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 });

  constructor(private readonly port: number) {}

  send({ method, path, headers = {}, body, chunked = false }: Outgoing): Promise<Reply> {
    const all: Record<string, string> = { ...headers };
    if (body !== undefined) {
      if (chunked) all['Transfer-Encoding'] = 'chunked';
      else all['Content-Length'] = String(Buffer.byteLength(body));
    }
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: this.port, method, path, headers: all, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (body !== undefined && chunked) {
        const middle = Math.floor(body.length / 2);
        req.write(body.slice(0, middle));
        req.end(body.slice(middle));
      } else {
        req.end(body);
      }
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Never a 5xx; any failure is exactly {code, message, status} with the HTTP status and its code. */
function expectWellFormed(reply: Reply, context: unknown): void {
  const where = `${JSON.stringify(context)} -> ${reply.status} ${reply.text.slice(0, 300)}`;
  expect(reply.status, where).toBeLessThan(500);
  if (reply.status < 400) return;
  expect(reply.headers['content-type'], where).toBe('application/json; charset=utf-8');
  const body = JSON.parse(reply.text) as Record<string, unknown>;
  expect(Object.keys(body).sort(), where).toEqual(['code', 'message', 'status']);
  expect(body.status, where).toBe(reply.status);
  expect(typeof body.message, where).toBe('string');
  expect(ERROR_STATUS[body.code as keyof typeof ERROR_STATUS], where).toBe(reply.status);
}

/** The contract's petId rule: decimal digits (at most 64 of them), 1..2^63-1. */
function contractPetId(decoded: string): bigint | undefined {
  if (!/^[0-9]{1,64}$/.test(decoded)) return undefined;
  const id = BigInt(decoded);
  return id >= 1n && id <= INT64_MAX ? id : undefined;
}

type BodyVerdict = { status: 400 | 413 | 415 } | { status: 200; quantity: number };

const JSON_TYPES = new Set(['application/json', 'application/merge-patch+json']);

/** What the contract says of a PATCH body, independent of the petId. */
function bodyVerdict(
  contentType: string | undefined,
  body: string | undefined,
  chunked: boolean,
): BodyVerdict {
  const bytes = body === undefined ? 0 : Buffer.byteLength(body);
  if (bytes === 0 && !chunked) return { status: 400 };
  const [mediaType, ...params] = (contentType ?? '').split(';');
  if (!JSON_TYPES.has(mediaType.trim().toLowerCase())) return { status: 415 };
  const charset = params
    .map((p) => /^\s*charset\s*=\s*"?([^"]*)"?\s*$/i.exec(p)?.[1])
    .find(Boolean);
  if (charset !== undefined && !['utf-8', 'utf8'].includes(charset.toLowerCase()))
    return { status: 415 };
  if (bytes > BODY_LIMIT) return { status: 413 };
  // A leading UTF-8 byte order mark is dropped when decoding, as RFC 8259 section 8.1 allows.
  if (body?.startsWith('\ufeff')) body = body.slice(1);
  let parsed: unknown;
  try {
    // A JSON text that is not an object or array is refused outright (RFC 8259 allows it; we do not).
    if (body!.length > 0 && !/^[ \t\n\r]*[{[]/.test(body!)) return { status: 400 };
    parsed = body!.length === 0 ? {} : JSON.parse(body!);
  } catch {
    return { status: 400 };
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    Array.isArray(parsed) ||
    depth(parsed) > MAX_DEPTH
  )
    return { status: 400 };
  const keys = Object.keys(parsed);
  const quantity = (parsed as { quantity?: unknown }).quantity;
  if (keys.length !== 1 || keys[0] !== 'quantity') return { status: 400 };
  if (
    typeof quantity !== 'number' ||
    !Number.isInteger(quantity) ||
    quantity < 0 ||
    quantity > QUANTITY_MAX
  ) {
    return { status: 400 };
  }
  return { status: 200, quantity: quantity === 0 ? 0 : quantity };
}

// Iterative: generated bodies nest deeper than the stack allows on some Node versions.
function depth(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [node, level] = pending.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, level + 1);
    for (const child of Object.values(node)) pending.push([child, level + 1]);
  }
  return deepest;
}

/** The stock the service must hold: the seed, changed only by PATCHes answered 200. */
class Model {
  readonly stock = new Map<bigint, Stock>(
    SEED.map((pet) => [pet.petId, { quantity: pet.quantity, status: pet.status }]),
  );

  apply(petId: bigint, quantity: number): Stock {
    const before = this.stock.get(petId)!;
    const status: PetStatus =
      quantity === 0 ? 'sold' : before.status === 'sold' ? 'available' : before.status;
    const after = { quantity, status };
    this.stock.set(petId, after);
    return after;
  }

  itemText(petId: bigint): string {
    const { quantity, status } = this.stock.get(petId)!;
    return `{"petId":${petId},"quantity":${quantity},"status":"${status}","available":${quantity}}`;
  }

  listText(): string {
    const ids = [...this.stock.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `[${ids.map((id) => this.itemText(id)).join(',')}]`;
  }
}

// ---------------------------------------------------------------------------------------------
// Generators

const knownIds = SEED.map((pet) => pet.petId);

/** A path segment as sent on the wire, and the petId text the server decodes from it (if any). */
type Segment = { raw: string; decoded: string | undefined };

const encoded = (text: string): Segment => ({ raw: encodeURIComponent(text), decoded: text });

const segmentArb: fc.Arbitrary<Segment> = fc.oneof(
  fc.constantFrom(...knownIds).map((id) => encoded(String(id))),
  fc
    .tuple(fc.constantFrom(...knownIds), fc.integer({ min: 1, max: 5 }))
    .map(([id, zeros]) => encoded('0'.repeat(zeros) + id)),
  fc.bigInt({ min: 0n, max: 2n ** 70n }).map((n) => encoded(String(n))),
  fc.bigInt({ min: INT64_MAX - 3n, max: INT64_MAX + 3n }).map((n) => encoded(String(n))),
  fc
    .constantFrom(
      '-1',
      '+1',
      '1.0',
      '1e3',
      '0x1F',
      ' 1',
      '1 ',
      '١',
      'NaN',
      'Infinity',
      '..',
      '.',
      'null',
      '[1]',
      '{}',
    )
    .map(encoded),
  fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }).map(encoded),
  fc
    .string({ minLength: 1, maxLength: 20, unit: fc.constantFrom(...'0123456789/?#%&=;,.:@ ') })
    .map(encoded),
  fc
    .constantFrom('%', '%zz', '%E0%A4%A', '%C0%AF', '%FF', '1%', '%%31')
    .map((raw) => ({ raw, decoded: undefined })),
);

const AUTH_SHAPES = [
  'Bearer KEY',
  'bearer KEY',
  'BEARER  KEY',
  'Bearer KEY ',
  'Bearer\tKEY',
  'Basic KEY',
  'KEY',
  'Bearer KEYx',
  'Bearer xKEY',
  'Bearer KEY KEY',
  'Token KEY',
  'Bearer',
  'Bearer ',
  'Bearer "KEY"',
  'Bearer pk_test_',
  'Bearer pk_live_KEY',
];

function authorizes(shape: string): boolean {
  return ['Bearer KEY', 'bearer KEY', 'BEARER  KEY', 'Bearer KEY '].includes(shape);
}

const visibleAscii = fc.string({
  maxLength: 60,
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
});
const headerName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,24}$/);
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'authorization',
  'expect',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'x-request-id',
  'if-none-match',
  'if-match',
  'if-modified-since',
  'range',
  'if-range',
  'origin',
  'access-control-request-method',
  'x-http-method-override',
  'content-type',
  'content-encoding',
]);

type GeneratedHeaders = typeof headersArb extends fc.Arbitrary<infer T> ? T : never;

/** The request headers a generated set stands for, and whether their Authorization carries the key validly. */
function requestHeaders(
  generated: GeneratedHeaders,
  key: string,
): { headers: Record<string, string>; valid: boolean } {
  const headers: Record<string, string> = { ...generated.extra };
  let valid = false;
  if (generated.auth?.startsWith('raw:')) headers.Authorization = generated.auth.slice(4);
  else if (generated.auth !== undefined) {
    headers.Authorization = generated.auth.replaceAll('KEY', key);
    valid = authorizes(generated.auth);
  }
  if (generated.requestId !== undefined) headers['X-Request-Id'] = generated.requestId;
  if (generated.forwardedFor !== undefined) headers['X-Forwarded-For'] = generated.forwardedFor;
  return { headers, valid };
}

const headersArb = fc.record({
  auth: fc.oneof(
    fc.constantFrom(...AUTH_SHAPES),
    visibleAscii.map((value) => `raw:${value}`),
    fc.constant(undefined),
  ),
  requestId: fc.option(fc.oneof(visibleAscii, fc.stringMatching(/^[A-Za-z0-9._:-]{1,140}$/)), {
    nil: undefined,
  }),
  extra: fc.dictionary(
    headerName.filter((name) => !RESERVED_HEADERS.has(name.toLowerCase())),
    visibleAscii,
    { maxKeys: 6 },
  ),
  forwardedFor: fc.option(
    fc.oneof(visibleAscii, fc.ipV4(), fc.ipV6(), fc.constant('unknown, , 1.2.3.4')),
    { nil: undefined },
  ),
});

const jsonText = fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value));
const nested = (levels: number, open: string, close: string, core: string) =>
  open.repeat(levels) + core + close.repeat(levels);

const bodyArb: fc.Arbitrary<string | undefined> = fc.oneof(
  // Valid, written in every way JSON allows.
  fc.integer({ min: 0, max: QUANTITY_MAX }).map((q) => JSON.stringify({ quantity: q })),
  fc.integer({ min: 0, max: 1000 }).map((q) => `  {\n "quantity" :\t${q}.0 }\n`),
  fc.constantFrom(
    '{"quantity":1e2}',
    '{"quantity":-0}',
    '{"quantity":0}',
    '{"quantity":2147483647}',
    '{"quantity":"x","quantity":7}',
  ),
  // Wrong types, wrong ranges, huge numbers.
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify({ quantity: value })),
  fc
    .constantFrom(
      '1e400',
      '-1e400',
      '9'.repeat(400),
      '2147483648',
      '-1',
      '1E-7',
      '0.5',
      '9007199254740993',
      `0.${'0'.repeat(300)}1`,
    )
    .map((n) => `{"quantity":${n}}`),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((n) => `{"quantity":${n}}`),
  // Extra, reserved and prototype-polluting keys.
  fc
    .dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), {
      minKeys: 1,
      maxKeys: 4,
    })
    .map((extra) => JSON.stringify({ ...extra, quantity: 5 })),
  fc
    .constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      '__defineGetter__',
    )
    .chain((name) =>
      fc.constantFrom(
        `{"quantity":1,"${name}":{"polluted":true}}`,
        `{"${name}":{"quantity":1}}`,
        `{"quantity":{"${name}":{"polluted":true}}}`,
        `{"${name}":{"prototype":{"polluted":true}},"quantity":2}`,
      ),
    ),
  // Deep nesting, within and beyond the size limit.
  fc.integer({ min: 1, max: 9000 }).map((n) => nested(n, '[', ']', '')),
  fc.integer({ min: 1, max: 3000 }).map((n) => `{"quantity":${nested(n, '{"a":', '}', '1')}}`),
  fc.integer({ min: 1, max: 5000 }).map((n) => `{"quantity":1,"deep":${nested(n, '[', ']', '0')}}`),
  fc.integer({ min: 25, max: 40 }).map((n) => `{"quantity":3,"x":${nested(n, '{"a":', '}', '0')}}`),
  // Not JSON, or not an object.
  jsonText,
  fc.string({ maxLength: 200, unit: 'binary' }),
  jsonText.chain((text) => fc.nat(text.length).map((cut) => text.slice(0, cut))),
  fc.constantFrom(
    '{"quantity":1,}',
    "{'quantity':1}",
    '{quantity:1}',
    'NaN',
    '{"quantity":1}}',
    '\ufeff{"quantity":1}',
    '[]',
    '{}',
    '   ',
    '{"quantity":1}\u0000',
    '{"quantity":NaN}',
    '{"quantity":Infinity}',
    '{"quantity":0x10}',
    '{"quantity":01}',
  ),
  // Around the 16 KiB limit.
  fc
    .integer({ min: BODY_LIMIT - 40, max: BODY_LIMIT * 3 })
    .map((size) => `{"quantity":1,"pad":"${'x'.repeat(size)}"}`),
  fc
    .integer({ min: 0, max: 200 })
    .map((extra) => `{"quantity":8}${' '.repeat(BODY_LIMIT - 14 + extra)}`),
  // Far over it: the 413 must arrive before the server closes, never a reset in its place.
  fc
    .integer({ min: 100 * 1024, max: 2 * 1024 * 1024 })
    .map((size) => `{"quantity":1,"pad":"${'x'.repeat(size)}"}`),
  fc.constant(undefined),
);

const contentTypeArb = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON',
  'application/json;charset=UTF-8',
  'application/merge-patch+json',
  'application/json; charset="utf-8"',
  'application/json; charset=latin1',
  'application/json; charset=us-ascii',
  'application/json; charset=utf-7',
  'application/json; charset=UTF-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'json',
  '',
  undefined,
);

// ---------------------------------------------------------------------------------------------

describe('fuzzing the HTTP surface (e2e)', () => {
  let t: TestApp;
  let client: Client;
  let key: string;
  const model = new Model();
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
  const auth = () => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    // The limiter is off here so each answer has one exact expected status; the second suite below keeps it on.
    t = await createTestApp({ RATE_LIMIT_ENABLED: 'false' });
    key = await t.createKey({ plan: 'enterprise', perMinute: 1e9, perDay: 1e9 });
    await t.seed(SEED);
    await t.app.listen(0, '127.0.0.1');
    client = new Client((t.app.getHttpServer().address() as AddressInfo).port);
  });
  afterAll(async () => {
    client?.close();
    await t?.close();
  });

  const expectStockUnchangedButForValidPatches = async () => {
    const reply = await client.send({ method: 'GET', path: '/v1/inventory', headers: auth() });
    expect(reply.status).toBe(200);
    expect(reply.text).toBe(model.listText());
  };

  /** Sends a PATCH, checks its answer against the contract, and records it in the model. */
  const patch = async (
    segment: Segment,
    request: Omit<Outgoing, 'method' | 'path'>,
    expected: number,
  ) => {
    const reply = await client.send({
      method: 'PATCH',
      path: `/v1/inventory/${segment.raw}`,
      ...request,
    });
    // Whatever the verdict, a 200 changed the stock: keep the model in step so one failure does not cascade.
    if (reply.status === 200) {
      const item = JSON.parse(reply.text.replace(/"petId":(\d+)/, '"petId":"$1"')) as {
        petId: string;
        quantity: number;
      };
      model.apply(BigInt(item.petId), item.quantity);
    }
    const context = { segment: segment.raw, ...request, body: request.body?.slice(0, 120) };
    expectWellFormed(reply, context);
    expect(reply.status, `${JSON.stringify(context)} -> ${reply.text.slice(0, 200)}`).toBe(
      expected,
    );
    return reply;
  };

  it('should answer any path id with 200, 400 or 404 as the contract says, and change only the pet it names', async () => {
    await fc.assert(
      fc.asyncProperty(segmentArb, fc.integer({ min: 0, max: 100 }), async (segment, quantity) => {
        const id = segment.decoded === undefined ? undefined : contractPetId(segment.decoded);
        const expected = id === undefined ? 400 : model.stock.has(id) ? 200 : 404;
        const headers = { ...auth(), 'Content-Type': 'application/json' };
        const reply = await patch(
          segment,
          { headers, body: JSON.stringify({ quantity }) },
          expected,
        );
        if (expected === 200) expect(reply.text).toBe(model.itemText(id!));
        if (segment.decoded !== undefined) {
          const pet = await client.send({
            method: 'GET',
            path: `/v1/pets/${segment.raw}`,
            headers: auth(),
          });
          expectWellFormed(pet, { get: `/v1/pets/${segment.raw}` });
        }
      }),
      { numRuns: RUNS.paths },
    );
    await expectStockUnchangedButForValidPatches();
  });

  it('should answer any body and media type as the contract says, and store only valid quantities', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...knownIds, 77n),
        contentTypeArb,
        bodyArb,
        fc.boolean(),
        async (petId, contentType, body, chunked) => {
          const verdict = bodyVerdict(contentType, body, chunked && body !== undefined);
          const expected = verdict.status === 200 && !model.stock.has(petId) ? 404 : verdict.status;
          const headers: Record<string, string> = auth();
          if (contentType !== undefined) headers['Content-Type'] = contentType;
          const reply = await patch(
            encoded(String(petId)),
            { headers, body, chunked: chunked && body !== undefined },
            expected,
          );
          if (expected === 200 && verdict.status === 200) {
            expect(JSON.parse(reply.text).quantity).toBe(verdict.quantity);
            expect(reply.text).toBe(model.itemText(petId));
          }
        },
      ),
      { numRuns: RUNS.bodies },
    );
    await expectStockUnchangedButForValidPatches();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("should give an upload the contract's verdict however its JSON media type is spelled", async () => {
    const spellings = fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON ; charset="UTF-8"',
      'application/merge-patch+json',
      'application/json; charset=latin1',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...knownIds),
        bodyArb,
        spellings,
        async (petId, body, type) => {
          const verdict = bodyVerdict(type, body, false);
          const headers = { ...auth(), 'Content-Type': type };
          const reply = await patch(encoded(String(petId)), { headers, body }, verdict.status);
          if (verdict.status === 200) {
            expect(JSON.parse(reply.text).quantity).toBe(verdict.quantity);
            expect(reply.text).toBe(model.itemText(petId));
          } else {
            expect(JSON.parse(reply.text)).toMatchObject({ status: verdict.status });
          }
        },
      ),
      { numRuns: RUNS.bodies },
    );
    await expectStockUnchangedButForValidPatches();
  });

  it('should answer any headers with 200 or 401 as the key decides, and echo only a well-formed request id', async () => {
    await fc.assert(
      fc.asyncProperty(headersArb, fc.constantFrom('GET', 'PATCH'), async (generated, method) => {
        const { headers, valid } = requestHeaders(generated, key);
        const body = method === 'PATCH' ? '{"quantity":1}' : undefined;
        if (body) headers['Content-Type'] = 'application/json';
        const reply = await client.send({
          method,
          path: method === 'GET' ? '/v1/inventory' : '/v1/inventory/1',
          headers,
          body,
        });
        if (reply.status === 200 && method === 'PATCH') model.apply(1n, 1);
        expectWellFormed(reply, headers);
        expect(reply.status, JSON.stringify(headers)).toBe(valid ? 200 : 401);
        const requestId = reply.headers['x-request-id'];
        const given = generated.requestId?.trim();
        // Kept when well formed, unless shaped like an API key (it would be logged).
        const keeps =
          given !== undefined &&
          /^[A-Za-z0-9._:-]{1,128}$/.test(given) &&
          !/pk_(live|test)_[0-9A-Za-z]{16}/.test(given);
        if (keeps) expect(requestId).toBe(given);
        else
          expect(requestId).toMatch(
            /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
          );
      }),
      { numRuns: RUNS.headers },
    );
    await expectStockUnchangedButForValidPatches();
  });

  it('should answer a missing key with 401 whatever else is wrong, and leave the stock alone', async () => {
    await fc.assert(
      fc.asyncProperty(segmentArb, contentTypeArb, bodyArb, async (segment, contentType, body) => {
        const headers: Record<string, string> =
          contentType === undefined ? {} : { 'Content-Type': contentType };
        // A path that cannot be decoded is refused only once the guards have run, so it is a 401 too.
        const expected = segment.raw === '' ? 404 : 401;
        await patch(segment, { headers, body }, expected);
      }),
      { numRuns: RUNS.paths },
    );
    await expectStockUnchangedButForValidPatches();
  });
});

describe('fuzzing headers with the rate limiter on (e2e)', () => {
  let t: TestApp;
  let client: Client;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({
      TRUST_PROXY: '1',
      RATE_LIMIT_BAN_THRESHOLD: '5',
      RATE_LIMIT_BAN_SECONDS: '60',
    });
    key = await t.createKey({ plan: 'enterprise', perMinute: 1e9, perDay: 1e9 });
    await t.seed(SEED);
    await t.app.listen(0, '127.0.0.1');
    client = new Client((t.app.getHttpServer().address() as AddressInfo).port);
  });
  afterAll(async () => {
    client?.close();
    await t?.close();
  });

  it('should never fail with a 5xx whatever the key, request id or forwarded address', async () => {
    const before = (
      await client.send({
        method: 'GET',
        path: '/v1/inventory',
        headers: { Authorization: `Bearer ${key}` },
      })
    ).text;
    await fc.assert(
      fc.asyncProperty(headersArb, async (generated) => {
        const { headers, valid } = requestHeaders(generated, key);
        const reply = await client.send({ method: 'GET', path: '/v1/inventory', headers });
        expectWellFormed(reply, headers);
        // Keyless callers share per-IP limits and may be limited or banned; a valid key never is here.
        expect(valid ? [200] : [401, 429], JSON.stringify(headers)).toContain(reply.status);
      }),
      { numRuns: RUNS.headers },
    );
    const after = (
      await client.send({
        method: 'GET',
        path: '/v1/inventory',
        headers: { Authorization: `Bearer ${key}` },
      })
    ).text;
    expect(after).toBe(before);
  });
});
