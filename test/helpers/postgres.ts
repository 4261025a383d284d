/**
 * A real PostgreSQL cluster for tests: initdb + pg_ctl (Debian's, /usr/lib/postgresql/N/bin) in a
 * temporary directory owned by the `postgres` user, on a free loopback port, password login,
 * stopped and removed by `stop()`. `available()` says why not when it cannot run here.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pg from 'pg';
import { freePort } from './remote-everything.js';

export interface PgCluster {
  port: number;
  /** postgres://grimoire:<password>@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  password: string;
  createDatabase(name: string): Promise<void>;
  /** A new, empty database of its own name; its URL. */
  freshDatabase(): Promise<string>;
  /** Fast shutdown (connections are cut); `start()` brings it back on the same port (each a no-op when already so). */
  pause(): void;
  start(): void;
  stop(): void;
}

const PASSWORD = 'test-secret-pw-7f3a';

export function pgBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

/** Undefined when a cluster can be started here, else the reason (for t.skip). */
export function pgUnavailable(): string | undefined {
  if (!pgBinDir()) return 'PostgreSQL is not installed (apt-get install postgresql; .ci/run does it)';
  if (process.getuid?.() !== 0) return 'starting a PostgreSQL cluster as the postgres user needs root (runuser)';
  if (spawnSync('id', ['-u', 'postgres']).status !== 0) return 'no postgres user on this machine';
  return undefined;
}

const asPostgres = (command: string, args: string[]) =>
  execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: '/',
  }).toString();

/** `fsync: true` for benchmarks (tests run without it: faster, and a crash of the machine is not what they test). */
export async function startPgCluster(options: { fsync?: boolean } = {}): Promise<PgCluster> {
  const bin = pgBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-pg-'));
  fs.chmodSync(dir, 0o755);
  execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  const pwFile = path.join(dir, 'pw');
  fs.writeFileSync(pwFile, PASSWORD);
  execFileSync('chown', ['postgres:postgres', pwFile]);
  asPostgres(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'grimoire',
    '--auth=scram-sha-256',
    `--pwfile=${pwFile}`,
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const port = await freePort();
  const serverOptions =
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=${options.fsync ? 'on' : 'off'} -c ` +
    `max_connections=200`;
  const start = () =>
    asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-l', logFile, '-o', serverOptions, '-w', '-t', '30', 'start']);
  start();
  let stopped = false;
  let running = true;
  let databases = 0;
  const url = (database = 'postgres') => `postgres://grimoire:${PASSWORD}@127.0.0.1:${port}/${database}`;
  const createDatabase = async (name: string) => {
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    } finally {
      await client.end();
    }
  };
  return {
    port,
    password: PASSWORD,
    url,
    createDatabase,
    async freshDatabase() {
      const name = `t${++databases}`;
      await createDatabase(name);
      return url(name);
    },
    pause() {
      if (!running) return;
      asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    start() {
      if (running) return;
      start();
      running = true;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
