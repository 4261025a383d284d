/** Vector helpers for embeddings: similarity and a compact text form for the store. */

/** Cosine similarity; 0 when either vector is zero, non-finite or the lengths differ. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  const similarity = dot / Math.sqrt(normA * normB);
  return Number.isFinite(similarity) ? similarity : 0;
}

/** Base64 of the vector's bytes (little-endian float32 on every platform Node runs on). */
export function toBase64(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
}

/** The inverse of toBase64; undefined when the text is not a whole number of float32s. */
export function fromBase64(text: string): Float32Array | undefined {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % Float32Array.BYTES_PER_ELEMENT !== 0) return undefined;
  // Copy: Buffer.from may return a slice of a shared pool at an unaligned offset.
  const copy = new Uint8Array(bytes);
  return new Float32Array(copy.buffer, 0, copy.length / Float32Array.BYTES_PER_ELEMENT);
}
