import { maskSecrets } from '../util/secrets.js';

/** Keeps the last lines a child wrote to stderr, to explain a crash or a failed start (secrets masked). */
export class StderrTail {
  private lines: string[] = [];
  private partial = '';

  constructor(private readonly max = 20) {}

  attach(stream: NodeJS.ReadableStream | undefined, onLine?: (line: string) => void): void {
    stream?.on('data', (chunk: Buffer | string) => {
      const text = this.partial + chunk.toString();
      const parts = text.split('\n');
      this.partial = parts.pop() ?? '';
      for (const line of parts) {
        if (!line.trim()) continue;
        this.lines.push(line);
        if (this.lines.length > this.max) this.lines.shift();
        onLine?.(line);
      }
    });
  }

  /** The guard's own exit report, when there is one, else the last line. */
  summary(): string | undefined {
    const exit = [...this.lines].reverse().find((line) => line.startsWith('grimoire child-guard:'));
    const last = this.lines[this.lines.length - 1];
    const line = (exit ?? last)?.replace(/^grimoire child-guard: /, '');
    return line === undefined ? undefined : maskSecrets(line);
  }

  text(): string {
    return maskSecrets(this.lines.join('\n'));
  }
}
