/**
 * Footprint of a gateway with stdio powers active: process count and total RSS of the gateway's
 * process tree (Linux /proc), with 3 and 10 server-memory powers activated through a real client.
 *
 *   npm run bench:footprint                       this checkout
 *   node out/test/bench/footprint.js --root DIR   another built checkout (e.g. the old guard on main)
 */
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload } from '../helpers/gateway-process.js';
import { processTree, type ProcessInfo } from '../helpers/process-tree.js';
import { repoRoot, tempDir, writeSpell } from '../helpers/temp.js';

function role(p: ProcessInfo, gatewayPid: number): string {
  if (p.pid === gatewayPid) return 'gateway';
  if (p.command.includes('child-guard')) return 'guard (one per power)';
  if (p.command.includes('server-memory')) return 'server-memory';
  if (p.command.startsWith('/bin/sh') || p.command.includes('child-supervisor')) return 'supervisor (one per gateway)';
  return p.command.slice(0, 60);
}

function memorySpell(name: string, dataDir: string): string {
  return `name: ${name}
version: 1.0.0
description: Knowledge graph number ${name} for the footprint benchmark.
keywords: [memory, graph, benchmark, ${name}]
steering: Benchmark power.
server:
  command: ${JSON.stringify(process.execPath)}
  args: [${JSON.stringify(path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js'))}]
  env:
    MEMORY_FILE_PATH: ${JSON.stringify(path.join(dataDir, `${name}.jsonl`))}
`;
}

async function measure(root: string, powers: number): Promise<void> {
  const home = tempDir('grimoire-footprint-');
  const spells = path.join(home.dir, 'spells');
  for (let i = 1; i <= powers; i++) writeSpell(spells, `mem${i}`, memorySpell(`mem${i}`, home.dir));
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  const cli = path.join(root, 'out', 'server', 'cli', 'main.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const session =
    root === repoRoot
      ? await connectStdio(['--spells', spells, '--no-imports'], env)
      : await (async () => {
          const transport = new StdioClientTransport({
            command: process.execPath,
            args: [cli, 'serve', '--stdio', '--spells', spells, '--no-imports'],
            env,
            stderr: 'pipe',
          });
          const client = new Client({ name: 'footprint', version: '1.0.0' });
          await client.connect(transport);
          return { client, pid: transport.pid };
        })();
  try {
    for (let i = 1; i <= powers; i++) {
      const result = payload(await session.client.callTool({ name: 'activate_power', arguments: { name: `mem${i}` } }));
      if (result.status !== 'activated') throw new Error(`mem${i}: ${JSON.stringify(result)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const procs = processTree(session.pid!);
    const byRole = new Map<string, { count: number; rssKb: number }>();
    for (const p of procs) {
      const r = byRole.get(role(p, session.pid!)) ?? { count: 0, rssKb: 0 };
      r.count += 1;
      r.rssKb += p.rssKb;
      byRole.set(role(p, session.pid!), r);
    }
    const totalKb = procs.reduce((sum, p) => sum + p.rssKb, 0);
    console.log(`\n${powers} stdio powers active (${root}):`);
    console.log(`  total: ${procs.length} processes, ${(totalKb / 1024).toFixed(0)} MB RSS`);
    for (const [name, r] of byRole)
      console.log(
        `  ${name.padEnd(30)} ${String(r.count).padStart(3)} processes ${(r.rssKb / 1024).toFixed(0).padStart(6)} MB`,
      );
  } finally {
    await session.client.close();
    home.cleanup();
  }
}

async function main(): Promise<void> {
  if (process.platform !== 'linux') throw new Error('this benchmark reads /proc: run it on Linux');
  const at = process.argv.indexOf('--root');
  const root = at > 0 ? path.resolve(process.argv[at + 1]) : repoRoot;
  for (const powers of [3, 10]) await measure(root, powers);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
