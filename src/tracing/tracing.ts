// Loaded by main.ts only when an OTLP endpoint is configured (trace-context.ts), before the server.
import { register } from 'node:module';
import { trace } from '@opentelemetry/api';
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
  BatchSpanProcessor,
  NodeTracerProvider,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';
import { isPostgresUrl } from '../config/app-config.js';
import { packageManifest } from '../runtime/runtime.js';
import { useTraceSource } from './trace-context.js';

export const SERVICE_NAME = 'petstore-inventory';

/**
 * Exports traces over OTLP/HTTP to the endpoint in the standard OTEL_EXPORTER_OTLP_*
 * variables, which the exporter reads itself, as the batch processor reads OTEL_BSP_* and the
 * provider OTEL_TRACES_SAMPLER. The W3C `traceparent` of a request is honoured.
 */
export async function startTracing(env: NodeJS.ProcessEnv): Promise<NodeTracerProvider> {
  // The app is ESM: its imports of the instrumented packages go through import-in-the-middle's
  // hook, which must be in place before they load. Told which modules the instrumentations hook
  // (its README, "Only Intercepting Hooked modules"), it leaves every other import alone.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const resource = resourceFromAttributes({
    'service.name': env.OTEL_SERVICE_NAME ?? SERVICE_NAME,
    'service.version': packageManifest().version,
  }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(traceExporter(env))],
  });
  provider.register();

  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Probes would outnumber the requests worth a trace.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => req.url?.startsWith('/health') ?? false,
      }),
      // One span per middleware (JSON writer, security headers, …) would be most of a trace's cost
      // and say nothing about the request: the handler's span is kept.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      new PgInstrumentation(),
      new IORedisInstrumentation(),
      // SQLite's driver has no instrumentation of its own: its queries show as TypeORM's. On
      // PostgreSQL pg's span is the query's, and TypeORM's would be a second one around it.
      ...(isPostgresUrl(env.DATABASE_URL ?? '') ? [] : [new TypeormInstrumentation()]),
    ],
  });

  await waitForAllMessagesAcknowledged();
  useTraceSource({
    traceId: () => trace.getActiveSpan()?.spanContext().traceId,
    flush: () => provider.forceFlush(),
  });
  return provider;
}

/**
 * OTLP/HTTP in the encoding OTEL_EXPORTER_OTLP_TRACES_PROTOCOL (or OTEL_EXPORTER_OTLP_PROTOCOL)
 * names: `http/protobuf`, the specification's default, or `http/json`.
 */
export function traceExporter(env: NodeJS.ProcessEnv): SpanExporter {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL)
    ?.trim()
    .toLowerCase();
  return protocol === 'http/json' ? new OtlpJsonExporter() : new OtlpProtobufExporter();
}
