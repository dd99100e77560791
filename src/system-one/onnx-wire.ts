/**
 * The subset of onnx.proto the System-One model files use: field numbers, tensor data types and
 * attribute types, shared by the writer (onnx-build.ts) and the reader (onnx-decode.ts).
 *
 * @module
 */

/** The onnx.proto field numbers this module writes and reads (source: onnx/onnx.proto, IR 7). */
export const ONNX_FIELDS = {
  model: { irVersion: 1, producerName: 2, producerVersion: 3, domain: 4, docString: 6, graph: 7, opsetImport: 8, metadataProps: 14 },
  opset: { domain: 1, version: 2 },
  entry: { key: 1, value: 2 },
  graph: { node: 1, name: 2, initializer: 5, input: 11, output: 12 },
  node: { input: 1, output: 2, name: 3, opType: 4, attribute: 5, domain: 7 },
  attribute: { name: 1, f: 2, i: 3, type: 20 },
  tensor: { dims: 1, dataType: 2, floatData: 4, int32Data: 5, name: 8, rawData: 9 },
  valueInfo: { name: 1, type: 2 },
  type: { tensorType: 1 },
  tensorType: { elemType: 1, shape: 2 },
  shape: { dim: 1 },
  dim: { dimValue: 1, dimParam: 2 },
} as const;

/** ONNX `TensorProto.DataType` values used here. */
export const ONNX_DATA_TYPE = { FLOAT: 1, UINT8: 2, INT8: 3 } as const;
/** ONNX `AttributeProto.AttributeType` values used here. */
export const ONNX_ATTRIBUTE_TYPE = { FLOAT: 1, INT: 2 } as const;
