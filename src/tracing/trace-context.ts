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

/** The OpenTelemetry variables that name where traces go (the SDK's own names). */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}
