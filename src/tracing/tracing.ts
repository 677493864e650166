import { register } from 'node:module';
import { setTimeout as delay } from 'node:timers/promises';
import { type Attributes, type Context, type Link, SpanKind, trace } from '@opentelemetry/api';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { TypeormInstrumentation } from '@opentelemetry/instrumentation-typeorm';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  NodeTracerProvider,
  ParentBasedSampler,
  type ReadableSpan,
  type Sampler,
  SamplingDecision,
  type SamplingResult,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { isPostgresUrl } from '../config/app-config.js';
import { packageManifest } from '../runtime/runtime.js';
import { traceExporters, traceWarning, useTraceSource } from './trace-context.js';

export const SERVICE_NAME = 'petstore-inventory';
export const SHUTDOWN_FLUSH_MS = 2000;
const WARN_EVERY_MS = 60_000;
const EXPORT_SUCCESS = 0;

export async function startTracing(env: NodeJS.ProcessEnv): Promise<NodeTracerProvider> {
  const names = traceExporters(env);
  // ESM: import-in-the-middle's hook must be in place before the instrumented packages load.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const resource = resourceFromAttributes({
    'service.name': env.OTEL_SERVICE_NAME ?? SERVICE_NAME,
    'service.version': packageManifest().version,
  }).merge(detectResources({ detectors: [envDetector] }));
  const exporters: ReportingExporter[] = [];
  const processors: SpanProcessor[] = [];
  const destinations: string[] = [];
  if (names.includes('otlp')) {
    const url = otlpTracesUrl(env);
    const exporter = new ReportingExporter(traceExporter(env), url);
    exporters.push(exporter);
    processors.push(new BatchSpanProcessor(exporter));
    destinations.push(`OTLP/HTTP (${otlpProtocol(env)}) to ${url}`);
  }
  if (names.includes('console')) {
    processors.push(new SimpleSpanProcessor(new ConsoleSpanExporter()));
    destinations.push('the console (stdout, OTEL_TRACES_EXPORTER=console)');
  }
  const provider = new NodeTracerProvider({
    resource,
    sampler: new RequestRootSampler(configuredSampler(env)),
    spanProcessors: processors,
  });
  provider.register();

  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Probes would outnumber the requests worth a trace.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => req.url?.startsWith('/health') ?? false,
      }),
      // A span per middleware would be most of a trace's cost and say nothing about the request.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      new PgInstrumentation(),
      new IORedisInstrumentation(),
      // SQLite's driver has no instrumentation; on PostgreSQL TypeORM's span would double pg's.
      ...(isPostgresUrl(env.DATABASE_URL ?? '') ? [] : [new TypeormInstrumentation()]),
    ],
  });

  await waitForAllMessagesAcknowledged();
  useTraceSource({
    traceId: () => trace.getActiveSpan()?.spanContext().traceId,
    destination: `Tracing on: spans go to ${destinations.join(' and ')}`,
    async flush() {
      const failing = exporters.filter((exporter) => exporter.failing);
      for (const exporter of failing)
        traceWarning(
          `Trace export to ${exporter.url} is failing: the spans still held are dropped at shutdown`,
        );
      if (failing.length > 0) return;
      await Promise.race([
        provider.forceFlush().catch(() => undefined),
        delay(SHUTDOWN_FLUSH_MS, undefined, { ref: false }),
      ]);
    },
  });
  return provider;
}

/** Only requests start traces: background polling would export a root span a second when idle. */
export class RequestRootSampler implements Sampler {
  constructor(private readonly inner: Sampler) {}

  shouldSample(
    context: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    if (kind !== SpanKind.SERVER && trace.getSpanContext(context) === undefined)
      return { decision: SamplingDecision.NOT_RECORD };
    return this.inner.shouldSample(context, traceId, name, kind, attributes, links);
  }

  toString(): string {
    return `RequestRootSampler{${this.inner.toString()}}`;
  }
}

/** The SDK reads OTEL_TRACES_SAMPLER only when given no sampler, and cannot build it for us. */
export function configuredSampler(env: NodeJS.ProcessEnv): Sampler {
  const arg = Number(env.OTEL_TRACES_SAMPLER_ARG);
  const ratio = env.OTEL_TRACES_SAMPLER_ARG && arg >= 0 && arg <= 1 ? arg : 1;
  switch (env.OTEL_TRACES_SAMPLER?.trim().toLowerCase()) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

class ReportingExporter implements SpanExporter {
  failing = false;
  private warnedAt = -Infinity;

  constructor(
    private readonly inner: SpanExporter,
    readonly url: string,
  ) {}

  export(spans: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]): void {
    this.inner.export(spans, (result) => {
      this.failing = result.code !== EXPORT_SUCCESS;
      if (this.failing && performance.now() - this.warnedAt >= WARN_EVERY_MS) {
        this.warnedAt = performance.now();
        traceWarning(
          `Trace export to ${this.url} failed (${failureReason(result.error)}): ${spans.length} span(s) dropped; check OTEL_EXPORTER_OTLP_ENDPOINT`,
        );
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

export function failureReason(error: unknown): string {
  const err = error as { code?: unknown; message?: unknown; errors?: unknown[]; 0?: unknown };
  for (const candidate of [err, err?.errors?.[0], err?.[0]] as (typeof err)[])
    if (typeof candidate?.code === 'string') return candidate.code;
  return typeof err?.message === 'string' && err.message ? err.message : 'unknown error';
}

export function otlpTracesUrl(env: NodeJS.ProcessEnv): string {
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || 'http://localhost:4318';
  const text = specific || `${base.replace(/\/+$/, '')}/v1/traces`;
  try {
    const url = new URL(text);
    url.username = '';
    url.password = '';
    url.search = '';
    return url.href;
  } catch {
    return '(an endpoint that is not a URL)';
  }
}

function otlpProtocol(env: NodeJS.ProcessEnv): string {
  return (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL)
    ?.trim()
    .toLowerCase() === 'http/json'
    ? 'http/json'
    : 'http/protobuf';
}

export function traceExporter(env: NodeJS.ProcessEnv): SpanExporter {
  return otlpProtocol(env) === 'http/json' ? new OtlpJsonExporter() : new OtlpProtobufExporter();
}
