import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeTraceRequest } from './otlp-protobuf.js';

/** One span as OTLP/HTTP JSON carries it (ids in hex). */
export interface ReceivedSpan {
  scope: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

interface ExportRequest {
  resourceSpans: {
    resource?: { attributes?: Attribute[] };
    scopeSpans: {
      scope: { name: string };
      spans: (Omit<ReceivedSpan, 'scope' | 'attributes'> & { attributes?: Attribute[] })[];
    }[];
  }[];
}

interface Attribute {
  key: string;
  value: Record<string, unknown>;
}

function attributes(list: Attribute[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));
}

/**
 * A collector's OTLP/HTTP endpoint in miniature: takes the exports (protobuf or JSON) a service sends to
 * POST /v1/traces and hands out the spans; `until` resolves when the spans so far satisfy a test.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly resources: Record<string, unknown>[] = [];
  /** The OTLP/HTTP encodings of the exports received. */
  readonly encodings = new Set<'http/protobuf' | 'http/json'>();
  private readonly server: Server;
  private waiters: { test: (spans: ReceivedSpan[]) => boolean; resolve: () => void }[] = [];

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/traces') {
          res.writeHead(404).end();
          return;
        }
        const body = Buffer.concat(chunks);
        const protobuf = req.headers['content-type'] === 'application/x-protobuf';
        const exported = (
          protobuf ? decodeTraceRequest(body) : JSON.parse(body.toString('utf8'))
        ) as ExportRequest;
        this.encodings.add(protobuf ? 'http/protobuf' : 'http/json');
        for (const { resource, scopeSpans } of exported.resourceSpans) {
          this.resources.push(attributes(resource?.attributes));
          for (const { scope, spans } of scopeSpans)
            for (const span of spans)
              this.spans.push({
                ...span,
                scope: scope.name,
                attributes: attributes(span.attributes),
              });
        }
        // An empty ExportTraceServiceResponse, in the request's encoding.
        if (protobuf) res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        this.waiters = this.waiters.filter((waiter) => {
          if (!waiter.test(this.spans)) return true;
          waiter.resolve();
          return false;
        });
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  until(test: (spans: ReceivedSpan[]) => boolean): Promise<void> {
    if (test(this.spans)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The chain of parents from `span` up to the root of what was received. */
export function ancestors(spans: ReceivedSpan[], span: ReceivedSpan): ReceivedSpan[] {
  const chain: ReceivedSpan[] = [];
  for (let parent = span.parentSpanId; parent;) {
    const found = spans.find((candidate) => candidate.spanId === parent);
    if (!found) break;
    chain.push(found);
    parent = found.parentSpanId;
  }
  return chain;
}
