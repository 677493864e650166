import { describe, expect, it } from 'vitest';
import { currentTraceId, flushTraces, tracingRequested, useTraceSource } from './trace-context.js';

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
