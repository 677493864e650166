import { describe, expect, it } from 'vitest';
import {
  currentTraceId,
  flushTraces,
  traceExporterProblem,
  traceExporters,
  tracingRequested,
  useTraceSource,
} from './trace-context.js';

describe('trace context', () => {
  it('should turn tracing on only when an OTLP endpoint is named and the SDK is not disabled', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(
      tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }),
    ).toBe(true);
    expect(
      tracingRequested({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_SDK_DISABLED: 'TRUE',
      }),
    ).toBe(false);
    expect(
      tracingRequested({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_SDK_DISABLED: 'false',
      }),
    ).toBe(true);
  });

  it('should take the exporters OTEL_TRACES_EXPORTER names, console without any endpoint', () => {
    expect(traceExporters({ OTEL_TRACES_EXPORTER: 'console' })).toEqual(['console']);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: ' Console ' })).toBe(true);
    expect(traceExporters({ OTEL_TRACES_EXPORTER: 'console,otlp' })).toEqual(['console', 'otlp']);
    expect(traceExporters({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual(['otlp']);
    expect(
      tracingRequested({
        OTEL_TRACES_EXPORTER: 'none',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      }),
    ).toBe(false);
    expect(traceExporterProblem({ OTEL_TRACES_EXPORTER: 'console,zipkin' })).toBe(
      'OTEL_TRACES_EXPORTER names zipkin; this service offers otlp, console and none',
    );
    expect(
      traceExporterProblem({ OTEL_TRACES_EXPORTER: 'zipkin', OTEL_SDK_DISABLED: 'true' }),
    ).toBeUndefined();
  });

  it('should answer no trace id and flush nothing until tracing installs its source', async () => {
    expect(currentTraceId()).toBeUndefined();
    await expect(flushTraces()).resolves.toBeUndefined();
    let flushed = 0;
    useTraceSource({ traceId: () => 'f'.repeat(32), flush: async () => void flushed++ });
    try {
      expect(currentTraceId()).toBe('f'.repeat(32));
      await flushTraces();
      expect(flushed).toBe(1);
    } finally {
      useTraceSource(undefined);
    }
  });
});
