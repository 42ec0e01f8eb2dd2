/**
 * Reads the metadata pairs (ModelProto field 14, `metadata_props`) of an ONNX file: onnxruntime has
 * no API for them, and the model's feature description (`norma_vision_spec`) travels there. The one
 * reader for the server and the browser (pwa/src/ml/spec.ts): a few lines of protobuf wire format
 * instead of a protobuf library in the bundle (onnx-proto with protobufjs: about 126 KB minified,
 * 21 KB gzip, and protobufjs reaches for eval, which the PWA's Content-Security-Policy forbids).
 */
export function readOnnxMetadata(bytes: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields(bytes)) {
    if (field.number !== 14 || !field.bytes) continue;
    let key = '';
    let value = '';
    for (const entry of fields(field.bytes)) {
      if (!entry.bytes) continue;
      if (entry.number === 1) key = text.decode(entry.bytes);
      if (entry.number === 2) value = text.decode(entry.bytes);
    }
    out[key] = value;
  }
  return out;
}

const text = new TextDecoder();

interface Field {
  number: number;
  /** Length-delimited payload (wire type 2); other wire types are skipped. */
  bytes?: Uint8Array;
}

function* fields(bytes: Uint8Array): Generator<Field> {
  let at = 0;
  const varint = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (at >= bytes.length) throw new Error('ONNX: файл оборван');
      const b = bytes[at++]!;
      // Beyond 2^53 precision is lost, harmless: only lengths and tags are used.
      result += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return result;
      shift += 7;
    }
  };
  while (at < bytes.length) {
    const tag = varint();
    const wire = tag % 8;
    const number = Math.floor(tag / 8);
    if (wire === 0) varint();
    else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const length = varint();
      if (at + length > bytes.length) throw new Error('ONNX: файл оборван');
      yield { number, bytes: bytes.subarray(at, at + length) };
      at += length;
      continue;
    } else throw new Error(`ONNX: неизвестный тип поля ${wire}`);
    yield { number };
  }
}
