// A real nginx (Debian's) in front of pacu mock replicas, for the cluster's tests and bench: its
// config in a temporary folder, run as a foreground child on a free loopback port, stopped after.
// The site config is the one docs/guides/shared-mock.md shows, so the guide's config is the tested one.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';
import { findNginx } from './system-servers.ts';

export interface TestNginx {
  /** `http://127.0.0.1:PORT`: the mock's base URL is this plus `/v3`. */
  readonly origin: string;
  readonly port: number;
  /** The process, whose CPU time the bench reads (nginx's master: its one worker is its child). */
  readonly pid: number;
  /** The whole nginx.conf it runs. */
  readonly config: string;
  /** What nginx logged (errors and warnings). */
  errors(): string;
  close(): Promise<void>;
}

export interface NginxOptions {
  /** An http-context config (upstream and server blocks); the guide's, its ports replaced, by default. */
  site?: string;
  /** How many worker processes. @default 1 */
  workers?: number;
}

const GUIDE = fileURLToPath(new URL('../../docs/guides/shared-mock.md', import.meta.url));
/** The ports the guide's config names: nginx's, then the replicas'. */
export const GUIDE_LISTEN = 4010;
const GUIDE_REPLICAS = [4011, 4012, 4013];

/**
 * The guide's nginx site config with its ports replaced: `listen` on `port`, one `server` line per
 * upstream port (the guide's three lines are the pattern; more or fewer are made from the first).
 */
export function guideSite(port: number, upstreams: readonly number[]): string {
  const block = /```nginx\n([\s\S]*?)```/.exec(readFileSync(GUIDE, 'utf8'))?.[1];
  if (!block) throw new Error(`${GUIDE} shows no nginx block`);
  const replica = new RegExp(`^(\\s*server 127\\.0\\.0\\.1:)(${GUIDE_REPLICAS.join('|')})\\b(.*)$`);
  const lines = block.split('\n');
  const found = lines.map((line) => replica.exec(line)).filter((match) => match !== null);
  const [first] = found;
  if (!first || found.length !== GUIDE_REPLICAS.length)
    throw new Error(`the guide's upstream should list the replicas ${GUIDE_REPLICAS.join(', ')}`);
  return lines
    .flatMap((line) => {
      if (line === first[0]) return upstreams.map((upstream) => `${first[1]}${upstream}${first[3]}`);
      return replica.test(line) ? [] : [line];
    })
    .join('\n')
    .replaceAll(`127.0.0.1:${GUIDE_LISTEN}`, `127.0.0.1:${port}`);
}

/** The main config around a site: what Debian's /etc/nginx/nginx.conf sets, with every path in `dir`. */
const mainConfig = (dir: string, site: string, workers: number): string => `worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${site}
}
`;

/** Start nginx round robin over `upstreams` (loopback ports); resolves once it accepts connections. */
export async function startNginx(
  upstreams: readonly number[],
  options: NginxOptions = {},
): Promise<TestNginx> {
  const nginx = findNginx();
  if (!nginx)
    throw new Error('nginx is not installed: apt-get install nginx (the test setup does this as root)');
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-nginx-'));
  const port = await freePort();
  const site = options.site ?? guideSite(port, upstreams);
  const config = mainConfig(dir, site, options.workers ?? 1);
  const file = path.join(dir, 'nginx.conf');
  writeFileSync(file, config);
  const child = spawn(nginx, ['-p', dir, '-e', `${dir}/error.log`, '-c', file, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const errors = (): string => {
    try {
      return stderr + readFileSync(path.join(dir, 'error.log'), 'utf8');
    } catch {
      return stderr;
    }
  };
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await accepting(child, port, errors);
  } catch (error) {
    await close();
    throw error;
  }
  return { origin: `http://127.0.0.1:${port}`, port, pid: child.pid as number, config, errors, close };
}

/** Until nginx accepts on `port` (it prints nothing when ready). */
async function accepting(child: ChildProcess, port: number, errors: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${errors()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen within 10 s: ${errors()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
