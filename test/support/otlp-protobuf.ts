/**
 * Reads an OTLP ExportTraceServiceRequest in protobuf (opentelemetry-proto's trace.proto) into
 * the shape of its OTLP/JSON form, ids in hex: only the fields the tests look at.
 */

type Field = { number: number; varint?: bigint; bytes?: Buffer };

function* fields(buf: Buffer): Generator<Field> {
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = buf[at++];
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
  };
  while (at < buf.length) {
    const tag = Number(varint());
    const number = tag >>> 3;
    switch (tag & 7) {
      case 0:
        yield { number, varint: varint() };
        break;
      case 1:
        yield { number, bytes: buf.subarray(at, (at += 8)) };
        break;
      case 2: {
        const length = Number(varint());
        yield { number, bytes: buf.subarray(at, (at += length)) };
        break;
      }
      case 5:
        yield { number, bytes: buf.subarray(at, (at += 4)) };
        break;
      default:
        throw new Error(`unexpected wire type in field ${number}`);
    }
  }
}

const all = (buf: Buffer, number: number) => [...fields(buf)].filter((f) => f.number === number);
const one = (buf: Buffer, number: number) => all(buf, number)[0];

function anyValue(buf: Buffer): Record<string, unknown> {
  const field = [...fields(buf)][0];
  if (!field) return {};
  switch (field.number) {
    case 1:
      return { stringValue: field.bytes!.toString('utf8') };
    case 2:
      return { boolValue: field.varint !== 0n };
    case 3:
      return { intValue: Number(BigInt.asIntN(64, field.varint!)) };
    case 4:
      return { doubleValue: field.bytes!.readDoubleLE(0) };
    default:
      return { other: field.bytes };
  }
}

function attributes(buf: Buffer, number: number) {
  return all(buf, number).map(({ bytes }) => ({
    key: one(bytes!, 1)?.bytes?.toString('utf8') ?? '',
    value: anyValue(one(bytes!, 2)?.bytes ?? Buffer.alloc(0)),
  }));
}

const hex = (field: Field | undefined) =>
  field?.bytes && field.bytes.length > 0 ? field.bytes.toString('hex') : undefined;

export function decodeTraceRequest(body: Buffer) {
  return {
    resourceSpans: all(body, 1).map(({ bytes: resourceSpans }) => {
      const resource = one(resourceSpans!, 1)?.bytes;
      return {
        resource: { attributes: resource ? attributes(resource, 1) : [] },
        scopeSpans: all(resourceSpans!, 2).map(({ bytes: scopeSpans }) => ({
          scope: {
            name: one(one(scopeSpans!, 1)?.bytes ?? Buffer.alloc(0), 1)?.bytes?.toString() ?? '',
          },
          spans: all(scopeSpans!, 2).map(({ bytes: span }) => ({
            traceId: hex(one(span!, 1))!,
            spanId: hex(one(span!, 2))!,
            parentSpanId: hex(one(span!, 4)),
            name: one(span!, 5)?.bytes?.toString('utf8') ?? '',
            kind: Number(one(span!, 6)?.varint ?? 0n),
            attributes: attributes(span!, 9),
          })),
        })),
      };
    }),
  };
}
