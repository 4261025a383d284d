import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { repoRoot } from './temp.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The real server-everything, serving Streamable HTTP or SSE on a loopback port. */
export async function startRemoteEverything(
  mode: 'streamableHttp' | 'sse',
): Promise<{ url: string; process: ChildProcess; stop(): void }> {
  const port = await freePort();
  const entry = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
  const child = spawn(process.execPath, [entry, mode], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start`)), 15_000);
    const onData = (chunk: Buffer) => {
      if (/listening|running/i.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`;
  return { url, process: child, stop: () => void child.kill('SIGTERM') };
}
