import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { configuredSampler, failureReason, otlpTracesUrl, RequestRootSampler } from './tracing.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';

describe('tracing', () => {
  it('should start traces at requests only, and follow the configured sampler below them', () => {
    const sampler = new RequestRootSampler(configuredSampler({}));
    const decide = (kind: SpanKind, context = ROOT_CONTEXT) =>
      sampler.shouldSample(context, TRACE, 'span', kind, {}, []).decision;
    expect(decide(SpanKind.SERVER)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    // Background work: the dispatcher's query, a delivery's request.
    expect(decide(SpanKind.CLIENT)).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(SpanKind.INTERNAL)).toBe(SamplingDecision.NOT_RECORD);
    const inRequest = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: TRACE,
      spanId: 'b7ad6b7169203331',
      traceFlags: 1,
    });
    expect(decide(SpanKind.CLIENT, inRequest)).toBe(SamplingDecision.RECORD_AND_SAMPLED);

    const off = new RequestRootSampler(configuredSampler({ OTEL_TRACES_SAMPLER: 'always_off' }));
    expect(off.shouldSample(ROOT_CONTEXT, TRACE, 's', SpanKind.SERVER, {}, []).decision).toBe(
      SamplingDecision.NOT_RECORD,
    );
  });

  it('should name where OTLP traces go, without credentials', () => {
    expect(otlpTracesUrl({})).toBe('http://localhost:4318/v1/traces');
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://u:p@otel.example/' })).toBe(
      'https://otel.example/v1/traces',
    );
    expect(
      otlpTracesUrl({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/traces?token=x',
      }),
    ).toBe('http://b:4318/traces');
  });

  it('should give a failed export a short reason', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(failureReason(refused)).toBe('ECONNREFUSED');
    expect(failureReason(new AggregateError([refused], ''))).toBe('ECONNREFUSED');
    expect(failureReason({ 0: { errno: -111, code: 'ECONNREFUSED' } })).toBe('ECONNREFUSED');
    expect(failureReason(new Error('Bad Request'))).toBe('Bad Request');
    expect(failureReason(undefined)).toBe('unknown error');
  });
});
