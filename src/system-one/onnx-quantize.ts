/**
 * The int8 quantization of the System-One weights (onnx-model.ts): symmetric, one scale per
 * output column, as the ONNX graph's `DequantizeLinear` (axis 1, zero point 0) reads it.
 *
 * @module
 */

/** An int8 matrix with one float scale and zero point per column: W ≈ (q − z) · s. */
export interface QuantizedMatrix {
  rows: number;
  cols: number;
  /** Row-major rows × cols. */
  q: Int8Array;
  /** One per column, float32. */
  scale: Float32Array;
  /** One per column (all 0: symmetric). */
  zeroPoint: Int8Array;
}

/**
 * Symmetric per-column int8 quantization: s_j = max_i |W_ij| / 127 (1 for an all-zero column),
 * q_ij = round(W_ij / s_j) in [-127, 127], z_j = 0. Deterministic.
 * @param weights - rows × cols, `weights[i][j]`.
 */
export function quantizeColumns(weights: readonly (readonly number[])[]): QuantizedMatrix {
  const rows = weights.length;
  const cols = weights[0]?.length ?? 0;
  const q = new Int8Array(rows * cols);
  const scale = new Float32Array(cols);
  for (let j = 0; j < cols; j++) {
    let max = 0;
    for (let i = 0; i < rows; i++) max = Math.max(max, Math.abs(weights[i]?.[j] ?? 0));
    const s = Math.fround(max > 0 ? max / 127 : 1);
    scale[j] = s;
    for (let i = 0; i < rows; i++) q[i * cols + j] = Math.max(-127, Math.min(127, Math.round((weights[i]?.[j] ?? 0) / s)));
  }
  return { rows, cols, q, scale, zeroPoint: new Int8Array(cols) };
}

/** The float matrix a {@link QuantizedMatrix} stands for: (q − z) · s, row-major. */
export function dequantize(m: QuantizedMatrix): Float32Array {
  const out = new Float32Array(m.rows * m.cols);
  for (let i = 0; i < m.rows; i++) {
    for (let j = 0; j < m.cols; j++) out[i * m.cols + j] = ((m.q[i * m.cols + j] as number) - (m.zeroPoint[j] as number)) * (m.scale[j] as number);
  }
  return out;
}
