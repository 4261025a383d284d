/**
 * Reads an HTTP request body within a size limit. A body over the limit is not kept: the rest is
 * read and dropped (up to DRAIN_FACTOR times the limit), so that the 413 answer reaches the client
 * and the connection stays usable for its next request; beyond that the connection is closed.
 */
import type { IncomingMessage } from 'node:http';
import { preview } from '../../../shared/preview.js';

const DRAIN_FACTOR = 16;

export type BodyRead =
  | { kind: 'json'; value: unknown }
  | { kind: 'invalid-json'; reason: string }
  | { kind: 'too-large'; bytes: number; declared: boolean; drained: boolean };

export function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = Number(request.headers['content-length'] ?? NaN);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = declared > maxBytes;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (!over && size > maxBytes) {
        over = true;
        chunks.length = 0;
      }
      if (!over) chunks.push(chunk);
      else if (size > maxBytes * DRAIN_FACTOR) {
        request.off('data', onData);
        request.off('end', onEnd);
        request.pause();
        resolve({
          kind: 'too-large',
          bytes: Math.max(size, declared || 0),
          declared: declared > maxBytes,
          drained: false,
        });
      }
    };
    const onEnd = () => {
      if (over)
        return resolve({
          kind: 'too-large',
          bytes: Math.max(size, declared || 0),
          declared: declared > maxBytes,
          drained: true,
        });
      const text = Buffer.concat(chunks).toString('utf8');
      if (!text.trim()) return resolve({ kind: 'invalid-json', reason: 'the body is empty' });
      try {
        resolve({ kind: 'json', value: JSON.parse(text) });
      } catch (error) {
        resolve({ kind: 'invalid-json', reason: preview((error as Error).message, 120) });
      }
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', reject);
  });
}
