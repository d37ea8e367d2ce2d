// A real PostgreSQL server for the tests (decision 185): Debian's binaries, initdb'd once into a
// cached template that each server copies, run as a foreground child on a free loopback port, as the
// `postgres` user when the tests run as root (the server refuses root).
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync } from 'node:fs';
import { chown, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';
import { findPostgres, type PostgresInstall } from './system-servers.ts';

export interface PostgresOptions {
  /**
   * Flush the WAL to disk at each commit, as a production server does. Off, a commit still reaches
   * the kernel before it is acknowledged (synchronous_commit stays on), so a crash of PostgreSQL's
   * processes loses nothing; only a crash of the machine could.
   * @default false
   */
  fsync?: boolean;
  /** More server settings, each passed as `-c name=value`. */
  settings?: Readonly<Record<string, string | number>>;
}

export interface TestPostgres {
  readonly port: number;
  readonly dataDir: string;
  /** Whether the server is up (between start and stop). */
  readonly running: boolean;
  /** The postmaster's pid while it runs (its backends are its children). */
  readonly pid: number | undefined;
  /** The URL `pacu mock --store` takes for a database of this server. */
  url(database?: string): string;
  /** A new, empty database (a copy of template0); resolves with its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Run SQL through psql; what it printed, one row a line, columns split by `|`. */
  sql(text: string, database?: string): Promise<string>;
  /**
   * Stop the server: `fast` ends sessions and checkpoints (`pg_ctl stop -m fast`); `immediate` is a
   * crash (`pg_ctl stop -m immediate`, SIGQUIT): nothing is flushed, the next start replays the WAL.
   */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Start it again on the same port and data directory. */
  start(): Promise<void>;
  /** Stop it and remove its folder. */
  close(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const READY_TIMEOUT_MS = 30_000;
/** Servers of this process still up: a worker that dies takes them down with it. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGQUIT');
});

/** The uid and gid of `name` from /etc/passwd. */
function account(name: string): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined)
    throw new Error(`the tests run as root and there is no '${name}' user to run PostgreSQL as`);
  return { uid: Number(uid), gid: Number(gid) };
}

/** initdb once per PostgreSQL version; later servers copy the folder, a fraction of initdb's CPU. */
function template(install: PostgresInstall, owner: { uid: number; gid: number } | undefined): string {
  const cache = path.join(ROOT, 'node_modules', '.cache', 'pacu');
  // Owned by the user the server runs as: a checkout tested as root and as itself keeps one of each.
  const folder = path.join(cache, `postgres-${install.version}-${owner?.uid ?? process.getuid?.() ?? 0}`);
  if (existsSync(path.join(folder, 'PG_VERSION'))) return folder;
  mkdirSync(cache, { recursive: true });
  const building = mkdtempSync(`${folder}.building-`);
  if (owner) execFileSync('chown', [`${owner.uid}:${owner.gid}`, building]);
  execFileSync(
    path.join(install.bin, 'initdb'),
    ['-D', path.join(building, 'data'), '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C'],
    { stdio: 'ignore', ...(owner ?? {}) },
  );
  try {
    renameSync(path.join(building, 'data'), folder);
  } catch (error) {
    // Another worker made it first: theirs is as good.
    if (!existsSync(path.join(folder, 'PG_VERSION'))) throw error;
  }
  execFileSync('rm', ['-rf', building]);
  return folder;
}

const SETTINGS = (socketDir: string, port: number, options: PostgresOptions): string[] =>
  Object.entries({
    listen_addresses: '127.0.0.1',
    port,
    unix_socket_directories: socketDir,
    fsync: options.fsync ? 'on' : 'off',
    full_page_writes: options.fsync ? 'on' : 'off',
    // What makes an acknowledged commit survive a crash of the server: never turned off here.
    synchronous_commit: 'on',
    ...options.settings,
  }).flatMap(([name, value]) => ['-c', `${name}=${value}`]);

/**
 * Start a PostgreSQL server of its own for a test file, on a free loopback port, its data in a
 * temporary folder that `close()` removes.
 *
 * @example
 * const pg = await startPostgres();
 * const store = await pg.createDatabase(); // postgres://postgres@127.0.0.1:PORT/t1_…
 * await pg.stop('immediate'); await pg.start();
 * await pg.close();
 */
export async function startPostgres(options: PostgresOptions = {}): Promise<TestPostgres> {
  const install = findPostgres();
  if (!install)
    throw new Error(
      'no PostgreSQL server binaries: install them with `apt-get install postgresql` (the test setup does this as root)',
    );
  const owner = process.getuid?.() === 0 ? account('postgres') : undefined;
  const folder = mkdtempSync(path.join(tmpdir(), 'pacu-pg-'));
  const dataDir = path.join(folder, 'data');
  execFileSync('cp', ['-a', template(install, owner), dataDir]);
  if (owner) await chown(folder, owner.uid, owner.gid);
  const port = await freePort();
  const args = ['-D', dataDir, ...SETTINGS(folder, port, options)];
  const logFile = path.join(folder, 'server.log');
  let child: ChildProcess | undefined;
  let databases = 0;

  const start = async (): Promise<void> => {
    if (child) return;
    const log = openSync(logFile, 'a');
    const started = spawn(path.join(install.bin, 'postgres'), args, {
      stdio: ['ignore', log, log],
      ...(owner ?? {}),
    });
    closeSync(log);
    child = started;
    live.add(started);
    started.once('exit', () => {
      live.delete(started);
      if (child === started) child = undefined;
    });
    await ready(started, dataDir, logFile);
  };

  const server: TestPostgres = {
    port,
    dataDir,
    get running() {
      return child !== undefined;
    },
    get pid() {
      return child?.pid;
    },
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async createDatabase(name = `t${++databases}_${process.pid}`) {
      await server.sql(`CREATE DATABASE "${name}" TEMPLATE template0`);
      return server.url(name);
    },
    async sql(text, database = 'postgres') {
      return (await runSql(install, port, text, database)).trimEnd();
    },
    async stop(mode = 'fast') {
      const running = child;
      if (!running) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill(mode === 'immediate' ? 'SIGQUIT' : 'SIGINT');
      await exited;
    },
    start,
    async close() {
      await server.stop('immediate');
      await rm(folder, { recursive: true, force: true });
    },
  };
  try {
    await start();
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}

/** psql with the statements on its standard input (several statements, no shell quoting). */
function runSql(install: PostgresInstall, port: number, text: string, database: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      path.join(install.bin, 'psql'),
      ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port)],
      { env: { ...process.env, PGUSER: 'postgres', PGDATABASE: database, PGCONNECT_TIMEOUT: '5' } },
      (error, stdout, stderr) =>
        error ? reject(new Error(`psql: ${stderr || error.message}`)) : resolve(stdout),
    );
    child.stdin?.end(text);
  });
}

/**
 * Until postmaster.pid says `ready` (how `pg_ctl -w` waits): after a crash the server first replays
 * its WAL, and only then takes connections.
 */
async function ready(child: ChildProcess, dataDir: string, logFile: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      throw new Error(`PostgreSQL exited as it started:\n${log.slice(-2000)}`);
    }
    const pid = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '');
    if (pid.split('\n')[7]?.trim() === 'ready') return;
    if (Date.now() > deadline) throw new Error(`PostgreSQL was not ready within ${READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
