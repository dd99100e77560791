/**
 * Decodes a System-One ONNX file into the parts the TypeScript kernels run (kernels.ts):
 * initializers, nodes, inputs, outputs and metadata, read with `@bufbuild/protobuf/wire`.
 *
 * @module
 */
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { JevMemError } from '../errors.js';
import { ONNX_ATTRIBUTE_TYPE, ONNX_DATA_TYPE, ONNX_FIELDS } from './onnx-wire.js';

const F = ONNX_FIELDS;
const LEN = WireType.LengthDelimited;

/** A decoded initializer. */
export interface DecodedTensor {
  name: string;
  dims: number[];
  /** Float32 for FLOAT, Int8Array for INT8, Uint8Array for UINT8. */
  data: Float32Array | Int8Array | Uint8Array;
}

/** A decoded graph node. */
export interface DecodedNode {
  opType: string;
  domain: string;
  inputs: string[];
  outputs: string[];
  /** Integer and float attributes by name (others are ignored). */
  attributes: Record<string, number>;
}

/** The parts of an ONNX model the kernels execute. */
export interface DecodedModel {
  opset: number;
  inputs: Array<{ name: string; dims: Array<number | string> }>;
  outputs: Array<{ name: string; dims: Array<number | string> }>;
  initializers: Map<string, DecodedTensor>;
  /** In file order (ONNX requires topological order). */
  nodes: DecodedNode[];
  metadata: Record<string, string>;
}

function loadFailed(message: string, cause?: unknown): JevMemError {
  return new JevMemError('MODEL_LOAD_FAILED', `System-One ONNX: ${message}`, cause === undefined ? {} : { cause });
}

/** Calls `onField` for every field of the message in `bytes`; unknown fields are skipped. */
function readMessage(bytes: Uint8Array, onField: (field: number, wire: WireType, r: BinaryReader) => boolean): void {
  const r = new BinaryReader(bytes);
  while (r.pos < r.len) {
    const [field, wire] = r.tag();
    if (!onField(field, wire, r)) r.skip(wire, field);
  }
}

/** A repeated integer field: packed (length-delimited) or one value per tag. */
function readInts(wire: WireType, r: BinaryReader, read: (r: BinaryReader) => number, into: number[]): void {
  if (wire === LEN) {
    const packed = new BinaryReader(r.bytes());
    while (packed.pos < packed.len) into.push(read(packed));
  } else into.push(read(r));
}

const int64 = (r: BinaryReader): number => Number(r.int64());

interface RawTensor {
  name: string;
  dims: number[];
  dataType: number;
  raw: Uint8Array;
  floatData: number[];
  int32Data: number[];
}

function readTensor(bytes: Uint8Array): RawTensor {
  const t: RawTensor = { name: '', dims: [], dataType: 0, raw: new Uint8Array(0), floatData: [], int32Data: [] };
  readMessage(bytes, (field, wire, r) => {
    if (field === F.tensor.dims) readInts(wire, r, int64, t.dims);
    else if (field === F.tensor.dataType) t.dataType = r.int32();
    else if (field === F.tensor.name) t.name = r.string();
    else if (field === F.tensor.rawData) t.raw = r.bytes();
    else if (field === F.tensor.int32Data) readInts(wire, r, (x) => x.int32(), t.int32Data);
    else if (field === F.tensor.floatData) readInts(wire, r, (x) => x.float(), t.floatData);
    else return false;
    return true;
  });
  return t;
}

function decodeTensor(t: RawTensor): DecodedTensor {
  const { name, dims, raw } = t;
  const count = dims.reduce((a, b) => a * b, 1);
  switch (t.dataType) {
    case ONNX_DATA_TYPE.FLOAT: {
      const data = new Float32Array(count);
      if (raw.length > 0) {
        if (raw.length !== count * 4) throw loadFailed(`initializer ${name}: ${raw.length} raw bytes for ${count} floats`);
        const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
        for (let i = 0; i < count; i++) data[i] = view.getFloat32(i * 4, true);
      } else {
        if (t.floatData.length !== count) throw loadFailed(`initializer ${name}: ${t.floatData.length} floats for ${count}`);
        data.set(t.floatData);
      }
      return { name, dims, data };
    }
    case ONNX_DATA_TYPE.INT8:
    case ONNX_DATA_TYPE.UINT8: {
      const int8 = t.dataType === ONNX_DATA_TYPE.INT8;
      const data = int8 ? new Int8Array(count) : new Uint8Array(count);
      if (raw.length > 0) {
        if (raw.length !== count) throw loadFailed(`initializer ${name}: ${raw.length} raw bytes for ${count} values`);
        data.set(int8 ? new Int8Array(raw.buffer, raw.byteOffset, raw.byteLength) : raw);
      } else {
        if (t.int32Data.length !== count) throw loadFailed(`initializer ${name}: ${t.int32Data.length} values for ${count}`);
        data.set(t.int32Data);
      }
      return { name, dims, data };
    }
    default:
      throw loadFailed(`initializer ${name} has data type ${String(t.dataType)}; only FLOAT, INT8 and UINT8 are supported`);
  }
}

function readNode(bytes: Uint8Array): DecodedNode {
  const n: DecodedNode = { opType: '', domain: '', inputs: [], outputs: [], attributes: {} };
  readMessage(bytes, (field, _wire, r) => {
    if (field === F.node.input) n.inputs.push(r.string());
    else if (field === F.node.output) n.outputs.push(r.string());
    else if (field === F.node.opType) n.opType = r.string();
    else if (field === F.node.domain) n.domain = r.string();
    else if (field === F.node.attribute) {
      let name = '';
      let type = 0;
      let i = 0;
      let f = 0;
      readMessage(r.bytes(), (af, _aw, ar) => {
        if (af === F.attribute.name) name = ar.string();
        else if (af === F.attribute.type) type = ar.int32();
        else if (af === F.attribute.i) i = int64(ar);
        else if (af === F.attribute.f) f = ar.float();
        else return false;
        return true;
      });
      if (type === ONNX_ATTRIBUTE_TYPE.INT) n.attributes[name] = i;
      else if (type === ONNX_ATTRIBUTE_TYPE.FLOAT) n.attributes[name] = f;
    } else return false;
    return true;
  });
  return n;
}

function readValueInfo(bytes: Uint8Array): { name: string; dims: Array<number | string> } {
  const v: { name: string; dims: Array<number | string> } = { name: '', dims: [] };
  readMessage(bytes, (field, _wire, r) => {
    if (field === F.valueInfo.name) v.name = r.string();
    else if (field === F.valueInfo.type) {
      readMessage(r.bytes(), (tf, _tw, tr) => {
        if (tf !== F.type.tensorType) return false;
        readMessage(tr.bytes(), (sf, _sw, sr) => {
          if (sf !== F.tensorType.shape) return false;
          readMessage(sr.bytes(), (df, _dw, dr) => {
            if (df !== F.shape.dim) return false;
            let dim: number | string = 0;
            readMessage(dr.bytes(), (xf, _xw, xr) => {
              if (xf === F.dim.dimValue) dim = int64(xr);
              else if (xf === F.dim.dimParam) dim = xr.string() || dim;
              else return false;
              return true;
            });
            v.dims.push(dim);
            return true;
          });
          return true;
        });
        return true;
      });
    } else return false;
    return true;
  });
  return v;
}

/**
 * Decodes an ONNX file into the parts the kernels run (initializers, nodes, inputs, outputs,
 * metadata). Reads only the fields of {@link ONNX_FIELDS}; others are skipped.
 * @throws JevMemError `MODEL_LOAD_FAILED` when the bytes are not a readable ONNX model or hold a
 *   tensor type other than FLOAT / INT8 / UINT8.
 */
export function decodeOnnx(bytes: Uint8Array): DecodedModel {
  let opset = 0;
  let graph: Uint8Array | undefined;
  const metadata: Record<string, string> = {};
  const tensors: RawTensor[] = [];
  const nodes: DecodedNode[] = [];
  const inputs: Array<{ name: string; dims: Array<number | string> }> = [];
  const outputs: Array<{ name: string; dims: Array<number | string> }> = [];
  try {
    readMessage(bytes, (field, _wire, r) => {
      if (field === F.model.graph) graph = r.bytes();
      else if (field === F.model.opsetImport) {
        let domain = '';
        let version = 0;
        readMessage(r.bytes(), (of, _ow, or) => {
          if (of === F.opset.domain) domain = or.string();
          else if (of === F.opset.version) version = int64(or);
          else return false;
          return true;
        });
        if (domain === '') opset = version;
      } else if (field === F.model.metadataProps) {
        let key = '';
        let value = '';
        readMessage(r.bytes(), (ef, _ew, er) => {
          if (ef === F.entry.key) key = er.string();
          else if (ef === F.entry.value) value = er.string();
          else return false;
          return true;
        });
        metadata[key] = value;
      } else return false;
      return true;
    });
    if (graph !== undefined) {
      readMessage(graph, (field, _wire, r) => {
        if (field === F.graph.node) nodes.push(readNode(r.bytes()));
        else if (field === F.graph.initializer) tensors.push(readTensor(r.bytes()));
        else if (field === F.graph.input) inputs.push(readValueInfo(r.bytes()));
        else if (field === F.graph.output) outputs.push(readValueInfo(r.bytes()));
        else return false;
        return true;
      });
    }
  } catch (e) {
    throw loadFailed(`the file is not a readable ONNX model (${e instanceof Error ? e.message : String(e)})`, e);
  }
  if (graph === undefined) throw loadFailed('the model has no graph');
  const initializers = new Map<string, DecodedTensor>();
  for (const t of tensors) initializers.set(t.name, decodeTensor(t));
  return { opset, inputs: inputs.filter((i) => !initializers.has(i.name)), outputs, initializers, nodes, metadata };
}
