import { maskSecrets, SecretLines } from '../util/secrets.js';
import { BoundedLines } from '../util/bounded-lines.js';

/** The longest stderr line kept; a longer one is cut and the rest of it dropped as it streams past. */
export const STDERR_LINE_BYTES = 2048;

/**
 * Keeps the last lines a child wrote to stderr, to explain a crash or a failed start (secrets masked, each
 * line as it arrives, so the lines it passes on are masked too). Reads in
 * bounded chunks: a child writing megabytes without a newline costs time linear in the bytes and
 * a few KB of memory.
 */
export class StderrTail {
  private kept: string[] = [];
  private splitter?: BoundedLines;
  /** Lines are kept masked: a private key's lines are masked although they arrive one by one. */
  private readonly secrets = new SecretLines();

  constructor(private readonly max = 20) {}

  attach(stream: NodeJS.ReadableStream | undefined, onLine?: (line: string) => void): void {
    if (!stream) return;
    const add = (raw: string) => {
      if (!raw.trim()) return;
      const line = this.secrets.mask(raw);
      this.kept.push(line);
      if (this.kept.length > this.max) this.kept.shift();
      onLine?.(line);
    };
    const splitter = new BoundedLines(STDERR_LINE_BYTES, add, (cut) =>
      add(`${cut.head.toString('utf8')}... (line cut: ${cut.bytes} bytes)`),
    );
    this.splitter = splitter;
    stream.on('data', (chunk: Buffer | string) =>
      splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk),
    );
    stream.on('end', () => splitter.end());
  }

  /** The last lines, oldest first; a line still being written counts as the last. */
  lines(): string[] {
    const pending = this.splitter?.pending().toString('utf8').trim();
    return pending ? [...this.kept, pending].slice(-this.max) : [...this.kept];
  }

  /** The last line, if any. */
  summary(): string | undefined {
    const lines = this.lines();
    const last = lines[lines.length - 1];
    return last === undefined ? undefined : maskSecrets(last);
  }

  text(): string {
    return maskSecrets(this.lines().join('\n'));
  }
}
