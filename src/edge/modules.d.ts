/**
 * Types of the model files the edge entry imports as Worker modules (wrangler `[[rules]]`):
 * binary files as `Data` modules (an `ArrayBuffer`), `.txt` as `Text` modules (a string).
 */
declare module '*.i8' {
  const bytes: ArrayBuffer;
  export default bytes;
}
declare module '*.f32' {
  const bytes: ArrayBuffer;
  export default bytes;
}
declare module '*.onnx' {
  const bytes: ArrayBuffer;
  export default bytes;
}
declare module '*.txt' {
  const text: string;
  export default text;
}
