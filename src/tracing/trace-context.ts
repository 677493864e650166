// What the rest of the service knows of tracing, without loading OpenTelemetry: tracing.ts,
// imported only when an exporter is configured, installs the source.

export interface TraceSource {
  /** The trace id of the active span, 32 hex digits. */
  traceId(): string | undefined;
  /** Exports the spans still held. */
  flush(): Promise<void>;
  /** Where spans go, for the start-up line. */
  destination?: string;
}

let source: TraceSource | undefined;
let warn: (message: string) => void = (message) => process.stderr.write(`${message}\n`);

export function useTraceSource(next: TraceSource | undefined): void {
  source = next;
}

export function currentTraceId(): string | undefined {
  return source?.traceId();
}

export function flushTraces(): Promise<void> {
  return source ? source.flush() : Promise.resolve();
}

/** The start-up line's text: where spans go, or undefined when tracing is off. */
export function traceDestination(): string | undefined {
  return source?.destination;
}

/** Where tracing reports an export that failed: the service's log, once it exists. */
export function useTraceWarnings(next: (message: string) => void): void {
  warn = next;
}

export function traceWarning(message: string): void {
  warn(message);
}

export const TRACE_EXPORTERS: readonly string[] = ['otlp', 'console'];

/**
 * The exporters the SDK's standard `OTEL_TRACES_EXPORTER` names (a comma-separated list of `otlp`,
 * `console`, `none`); unset, `otlp` when an OTLP endpoint is named, else none.
 */
export function traceExporters(env: NodeJS.ProcessEnv): string[] {
  const named = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (named.length === 0)
    return env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
      ? ['otlp']
      : [];
  return named.includes('none') ? [] : [...new Set(named)];
}

/**
 * Tracing is on when `OTEL_TRACES_EXPORTER` or an OTLP endpoint names where traces go, unless the
 * SDK's own switch `OTEL_SDK_DISABLED=true` turns it off.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return traceExporters(env).length > 0;
}

/** Why the exporters named cannot start, if they cannot: one this service does not offer. */
export function traceExporterProblem(env: NodeJS.ProcessEnv): string | undefined {
  if (!tracingRequested(env)) return undefined;
  const unknown = traceExporters(env).filter((name) => !TRACE_EXPORTERS.includes(name));
  return unknown.length === 0
    ? undefined
    : `OTEL_TRACES_EXPORTER names ${unknown.join(', ')}; this service offers otlp, console and none`;
}
