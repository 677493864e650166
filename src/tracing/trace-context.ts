// What the rest of the service knows of tracing, without loading OpenTelemetry: tracing.ts,
// imported only when an OTLP endpoint is configured, installs the source.

export interface TraceSource {
  /** The trace id of the active span, 32 hex digits. */
  traceId(): string | undefined;
  /** Exports the spans still held. */
  flush(): Promise<void>;
}

let source: TraceSource | undefined;

export function useTraceSource(next: TraceSource | undefined): void {
  source = next;
}

export function currentTraceId(): string | undefined {
  return source?.traceId();
}

export function flushTraces(): Promise<void> {
  return source ? source.flush() : Promise.resolve();
}

/**
 * Tracing is on when an OpenTelemetry variable names where traces go, unless the SDK's own switch
 * `OTEL_SDK_DISABLED=true` turns it off.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}
