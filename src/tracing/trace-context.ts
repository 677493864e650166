// Loads no OpenTelemetry: tracing.ts installs the source only when an exporter is configured.

export interface TraceSource {
  traceId(): string | undefined;
  flush(): Promise<void>;
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

export function traceDestination(): string | undefined {
  return source?.destination;
}

export function useTraceWarnings(next: (message: string) => void): void {
  warn = next;
}

export function traceWarning(message: string): void {
  warn(message);
}

export const TRACE_EXPORTERS: readonly string[] = ['otlp', 'console'];

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

export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return traceExporters(env).length > 0;
}

export function traceExporterProblem(env: NodeJS.ProcessEnv): string | undefined {
  if (!tracingRequested(env)) return undefined;
  const unknown = traceExporters(env).filter((name) => !TRACE_EXPORTERS.includes(name));
  return unknown.length === 0
    ? undefined
    : `OTEL_TRACES_EXPORTER names ${unknown.join(', ')}; this service offers otlp, console and none`;
}
