/**
 * The System-One worker of the extension: the package's worker entry
 * (`worker/system-one-onnx.worker.ts`, comlink + the local backend, onnxruntime-web bundled for the 'onnx' engine), with the extension's
 * diagnostics installed first and forwarded to the offscreen document on a BroadcastChannel.
 *
 * @module
 */
import './worker-diagnostics.js';
import '../../../worker/system-one-onnx.worker.js';
