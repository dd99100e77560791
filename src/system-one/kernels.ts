/**
 * Pure-TypeScript executor of the System-One ONNX files (SPEC 9: Cloudflare Workers cannot
 * compile WebAssembly at run time, so onnxruntime-web cannot run there). It decodes the same
 * `.onnx` file the onnxruntime engine runs (one source of truth for the int8 weights and
 * scales), folds every constant sub-graph once at load (the `DequantizeLinear` of each weight
 * matrix), and runs the rest on float32 rows.
 *
 * Supported graphs: opset ≤ 13 semantics of `DequantizeLinear` (per-tensor or per-axis, int8 or
 * uint8, optional zero point), `MatMul` (2-D), `Add` / `Sub` / `Mul` / `Div` (NumPy
 * broadcasting up to rank 2), `Relu`, `Sigmoid`, `Tanh`, `Softmax` (last axis), `Identity`; one
 * input of shape [N, F]. Anything else is refused at load time.
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import { decodeOnnx, type DecodedModel, type DecodedNode } from './onnx-decode.js';

/** A float32 tensor of rank ≤ 2 (rank-1 tensors broadcast as rows). */
interface Tensor {
  dims: number[];
  data: Float32Array;
}

/** A raw initializer before folding (int8 / uint8 weights stay integral until dequantized). */
interface RawTensor {
  dims: number[];
  data: Float32Array | Int8Array | Uint8Array;
}

/** A model ready to run. */
export interface CompiledModel {
  /** Name of the one graph input. */
  readonly inputName: string;
  /** Features per row (the input's second dimension). */
  readonly inputSize: number;
  /** Graph outputs with their widths (second dimension). */
  readonly outputs: ReadonlyArray<{ name: string; size: number }>;
  /** The file's `metadata_props`. */
  readonly metadata: Readonly<Record<string, string>>;
  /**
   * Runs `rows` rows (`input` is rows × inputSize, row-major) and returns every graph output
   * (rows × size, row-major).
   * @throws JevMemError `SYSTEM_ONE_FAILED` when `input` has the wrong length.
   */
  run(input: Float32Array, rows: number): Record<string, Float32Array>;
}

const SUPPORTED = new Set(['DequantizeLinear', 'MatMul', 'Add', 'Sub', 'Mul', 'Div', 'Relu', 'Sigmoid', 'Tanh', 'Softmax', 'Identity']);

function loadFailed(message: string): JevMemError {
  return new JevMemError('MODEL_LOAD_FAILED', `System-One kernels: ${message}`);
}

function runFailed(message: string): JevMemError {
  return new JevMemError('SYSTEM_ONE_FAILED', `System-One kernels: ${message}`);
}

const size = (dims: readonly number[]): number => dims.reduce((a, b) => a * b, 1);

/** Treats a rank-0/1/2 tensor as [rows, cols] for broadcasting. */
function asMatrix(t: { dims: number[] }): [number, number] {
  if (t.dims.length === 0) return [1, 1];
  if (t.dims.length === 1) return [1, t.dims[0] as number];
  if (t.dims.length === 2) return [t.dims[0] as number, t.dims[1] as number];
  throw runFailed(`tensors of rank ${t.dims.length} are not supported`);
}

function dequantize(x: RawTensor, scale: RawTensor, zero: RawTensor | undefined, axisAttr: number | undefined): Tensor {
  const out = new Float32Array(x.data.length);
  const rank = x.dims.length;
  if (scale.data.length === 1) {
    const s = scale.data[0] as number;
    const z = zero === undefined ? 0 : (zero.data[0] as number);
    for (let i = 0; i < out.length; i++) out[i] = ((x.data[i] as number) - z) * s;
    return { dims: [...x.dims], data: out };
  }
  const axis = (axisAttr ?? 1) < 0 ? (axisAttr ?? 1) + rank : (axisAttr ?? 1);
  const n = x.dims[axis];
  if (n === undefined || n !== scale.data.length) throw loadFailed(`DequantizeLinear: ${scale.data.length} scales for axis ${axis} of [${x.dims.join(', ')}]`);
  // stride of the axis: product of the dims after it
  const inner = size(x.dims.slice(axis + 1));
  for (let i = 0; i < out.length; i++) {
    const k = Math.floor(i / inner) % n;
    const z = zero === undefined ? 0 : (zero.data[k] as number);
    out[i] = ((x.data[i] as number) - z) * (scale.data[k] as number);
  }
  return { dims: [...x.dims], data: out };
}

function matmul(a: Tensor, b: Tensor): Tensor {
  if (a.dims.length !== 2 || b.dims.length !== 2) throw runFailed(`MatMul needs 2-D operands, got [${a.dims.join(', ')}] × [${b.dims.join(', ')}]`);
  const [n, k] = a.dims as [number, number];
  const [k2, m] = b.dims as [number, number];
  if (k !== k2) throw runFailed(`MatMul shapes [${n}, ${k}] × [${k2}, ${m}] do not match`);
  const out = new Float32Array(n * m);
  const acc = new Float64Array(m);
  for (let r = 0; r < n; r++) {
    acc.fill(0);
    for (let i = 0; i < k; i++) {
      const x = a.data[r * k + i] as number;
      if (x === 0) continue;
      const row = i * m;
      for (let j = 0; j < m; j++) acc[j] = (acc[j] as number) + x * (b.data[row + j] as number);
    }
    out.set(acc, r * m);
  }
  return { dims: [n, m], data: out };
}

function broadcast(op: string, a: Tensor, b: Tensor, f: (x: number, y: number) => number): Tensor {
  const [ar, ac] = asMatrix(a);
  const [br, bc] = asMatrix(b);
  const rows = Math.max(ar, br);
  const cols = Math.max(ac, bc);
  if ((ar !== rows && ar !== 1) || (br !== rows && br !== 1) || (ac !== cols && ac !== 1) || (bc !== cols && bc !== 1)) {
    throw runFailed(`${op}: shapes [${a.dims.join(', ')}] and [${b.dims.join(', ')}] do not broadcast`);
  }
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    const ra = ar === 1 ? 0 : r;
    const rb = br === 1 ? 0 : r;
    for (let c = 0; c < cols; c++) {
      out[r * cols + c] = f(a.data[ra * ac + (ac === 1 ? 0 : c)] as number, b.data[rb * bc + (bc === 1 ? 0 : c)] as number);
    }
  }
  const dims = a.dims.length === 2 || b.dims.length === 2 ? [rows, cols] : [cols];
  return { dims, data: out };
}

function unary(t: Tensor, f: (x: number) => number): Tensor {
  const out = new Float32Array(t.data.length);
  for (let i = 0; i < out.length; i++) out[i] = f(t.data[i] as number);
  return { dims: [...t.dims], data: out };
}

function softmaxRows(t: Tensor, axisAttr: number | undefined): Tensor {
  const rank = t.dims.length;
  const axis = (axisAttr ?? -1) < 0 ? (axisAttr ?? -1) + rank : (axisAttr ?? -1);
  if (axis !== rank - 1) throw runFailed(`Softmax over axis ${axis} of a rank-${rank} tensor is not supported (last axis only)`);
  const [rows, cols] = asMatrix(t);
  const out = new Float32Array(t.data.length);
  for (let r = 0; r < rows; r++) {
    let max = -Infinity;
    for (let c = 0; c < cols; c++) max = Math.max(max, t.data[r * cols + c] as number);
    let sum = 0;
    for (let c = 0; c < cols; c++) sum += Math.exp((t.data[r * cols + c] as number) - max);
    for (let c = 0; c < cols; c++) out[r * cols + c] = Math.exp((t.data[r * cols + c] as number) - max) / sum;
  }
  return { dims: [...t.dims], data: out };
}

/** σ(x) = 1 / (1 + e^(−x)), stable for large |x|. */
function sigmoid(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

function toFloat(t: RawTensor): Tensor {
  return { dims: t.dims, data: t.data instanceof Float32Array ? t.data : Float32Array.from(t.data) };
}

/** Evaluates one node given its (resolved) inputs. */
function evaluate(node: DecodedNode, inputs: Array<RawTensor | undefined>): Tensor {
  const [a, b, c] = inputs;
  const need = (t: RawTensor | undefined, i: number): RawTensor => {
    if (t === undefined) throw runFailed(`${node.opType} ${node.outputs[0] ?? ''}: input ${i} (${node.inputs[i] ?? ''}) is not available`);
    return t;
  };
  switch (node.opType) {
    case 'DequantizeLinear':
      return dequantize(need(a, 0), need(b, 1), c, node.attributes.axis);
    case 'MatMul':
      return matmul(toFloat(need(a, 0)), toFloat(need(b, 1)));
    case 'Add':
      return broadcast('Add', toFloat(need(a, 0)), toFloat(need(b, 1)), (x, y) => x + y);
    case 'Sub':
      return broadcast('Sub', toFloat(need(a, 0)), toFloat(need(b, 1)), (x, y) => x - y);
    case 'Mul':
      return broadcast('Mul', toFloat(need(a, 0)), toFloat(need(b, 1)), (x, y) => x * y);
    case 'Div':
      return broadcast('Div', toFloat(need(a, 0)), toFloat(need(b, 1)), (x, y) => x / y);
    case 'Relu':
      return unary(toFloat(need(a, 0)), (x) => (x > 0 ? x : 0));
    case 'Sigmoid':
      return unary(toFloat(need(a, 0)), sigmoid);
    case 'Tanh':
      return unary(toFloat(need(a, 0)), Math.tanh);
    case 'Softmax':
      return softmaxRows(toFloat(need(a, 0)), node.attributes.axis);
    case 'Identity':
      return toFloat(need(a, 0));
    default:
      throw runFailed(`unsupported op ${node.opType}`);
  }
}

/**
 * Prepares a decoded model for {@link CompiledModel.run}: checks the ops, then evaluates every
 * node whose inputs are all constants once (weight dequantization), keeping the rest.
 * @throws JevMemError `MODEL_LOAD_FAILED` for an unsupported op, opset, input shape or a node
 *   that reads a value nothing produces.
 */
export function compileModel(model: DecodedModel): CompiledModel {
  if (model.opset > 13 || model.opset < 10) throw loadFailed(`opset ${model.opset} is not supported (10-13)`);
  if (model.inputs.length !== 1) throw loadFailed(`expected one graph input, got ${model.inputs.length}`);
  const input = model.inputs[0] as { name: string; dims: Array<number | string> };
  const width = input.dims[1];
  if (input.dims.length !== 2 || typeof width !== 'number' || width <= 0) throw loadFailed(`input ${input.name} must be [N, F] with a fixed F, got [${input.dims.join(', ')}]`);
  const constants = new Map<string, RawTensor>();
  for (const [name, t] of model.initializers) constants.set(name, { dims: t.dims, data: t.data });
  const dynamic: DecodedNode[] = [];
  const produced = new Set<string>([input.name, ...constants.keys()]);
  for (const node of model.nodes) {
    if (node.domain !== '' && node.domain !== 'ai.onnx') throw loadFailed(`op ${node.domain}.${node.opType} is not supported`);
    if (!SUPPORTED.has(node.opType)) throw loadFailed(`op ${node.opType} is not supported (supported: ${[...SUPPORTED].join(', ')})`);
    if (node.outputs.length !== 1) throw loadFailed(`op ${node.opType} must have one output`);
    for (const name of node.inputs) if (name !== '' && !produced.has(name)) throw loadFailed(`node ${node.outputs[0] ?? ''} reads ${name}, which nothing produces before it`);
    produced.add(node.outputs[0] as string);
    const present = node.inputs.filter((n) => n !== '');
    if (present.every((n) => constants.has(n))) {
      constants.set(node.outputs[0] as string, evaluate(node, node.inputs.map((n) => (n === '' ? undefined : constants.get(n)))));
    } else {
      dynamic.push(node);
    }
  }
  const outputs = model.outputs.map((o) => {
    if (!produced.has(o.name)) throw loadFailed(`output ${o.name} is never produced`);
    const w = o.dims[1];
    return { name: o.name, size: typeof w === 'number' ? w : 0 };
  });
  return {
    inputName: input.name,
    inputSize: width,
    outputs,
    metadata: { ...model.metadata },
    run(data: Float32Array, rows: number): Record<string, Float32Array> {
      if (!(data instanceof Float32Array) || !Number.isInteger(rows) || rows < 0 || data.length !== rows * width) {
        throw runFailed(`input must be a Float32Array of rows × ${width} values; got ${data?.length} values for ${rows} rows`);
      }
      const values = new Map<string, RawTensor>(constants);
      values.set(input.name, { dims: [rows, width], data });
      for (const node of dynamic) {
        values.set(node.outputs[0] as string, evaluate(node, node.inputs.map((n) => (n === '' ? undefined : values.get(n)))));
      }
      const result: Record<string, Float32Array> = {};
      for (const o of outputs) result[o.name] = toFloat(values.get(o.name) as RawTensor).data;
      return result;
    },
  };
}

/**
 * Decodes and compiles an ONNX file (see {@link compileModel}).
 * @throws JevMemError `MODEL_LOAD_FAILED` when the bytes are not a supported model.
 */
export function compileOnnx(bytes: Uint8Array): CompiledModel {
  return compileModel(decodeOnnx(bytes));
}
