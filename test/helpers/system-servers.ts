// vitest globalSetup: the cluster's tests run a real PostgreSQL and a real nginx from Debian's
// packages (decision 185). On a fresh machine, as root, they are installed here, once and quietly;
// anywhere else a missing one fails the run with what to install: never a skip, in CI or not.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export interface PostgresInstall {
  /** The folder of postgres, initdb, psql and pgbench. */
  readonly bin: string;
  /** The server's version, `15.18`. */
  readonly version: string;
}

/** Where Debian puts each major version's binaries. */
const DEBIAN_POSTGRES = '/usr/lib/postgresql';

function onPath(program: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter).concat('/usr/sbin', '/usr/local/sbin'))
    if (folder && existsSync(path.join(folder, program))) return path.join(folder, program);
  return undefined;
}

/** The newest PostgreSQL server binaries: `PACU_PG_BIN`, Debian's, or the folder `pg_config` names. */
function postgresBin(): string | undefined {
  if (process.env.PACU_PG_BIN) return process.env.PACU_PG_BIN;
  const majors = existsSync(DEBIAN_POSTGRES)
    ? readdirSync(DEBIAN_POSTGRES)
        .filter((name) => existsSync(path.join(DEBIAN_POSTGRES, name, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors[0]) return path.join(DEBIAN_POSTGRES, majors[0], 'bin');
  const pgConfig = onPath('pg_config');
  if (!pgConfig) return undefined;
  const bin = execFileSync(pgConfig, ['--bindir'], { encoding: 'utf8' }).trim();
  return existsSync(path.join(bin, 'postgres')) ? bin : undefined;
}

let found: PostgresInstall | undefined;

/** PostgreSQL's server binaries and version, or undefined when there are none. */
export function findPostgres(): PostgresInstall | undefined {
  if (found) return found;
  const bin = postgresBin();
  if (!bin) return undefined;
  const printed = execFileSync(path.join(bin, 'postgres'), ['--version'], { encoding: 'utf8' });
  found = { bin, version: /\d+(?:\.\d+)*/.exec(printed)?.[0] ?? 'unknown' };
  return found;
}

/** The nginx binary, or undefined. */
export function findNginx(): string | undefined {
  return process.env.PACU_NGINX ?? onPath('nginx');
}

/** The Debian packages that bring what is missing. */
function missing(): string[] {
  return [...(findPostgres() ? [] : ['postgresql']), ...(findNginx() ? [] : ['nginx'])];
}

function aptInstall(packages: string[]): void {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = (): void => {
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  };
  try {
    install();
  } catch {
    // A fresh machine may have no package lists yet.
    execFileSync('apt-get', ['update', '-qq'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    install();
  }
}

export default function systemServers(): void {
  const packages = missing();
  if (packages.length === 0) return;
  const command = `apt-get install -y ${packages.join(' ')}`;
  if (process.getuid?.() !== 0 || !onPath('apt-get'))
    throw new Error(
      `pacu's cluster tests run a real PostgreSQL and nginx, and ${packages.join(' and ')} is missing: install it (Debian: sudo ${command}), or set PACU_PG_BIN / PACU_NGINX to where they are`,
    );
  process.stderr.write(`pacu tests: installing ${packages.join(' ')} from Debian's packages (once)\n`);
  aptInstall(packages);
  found = undefined;
  const still = missing();
  if (still.length > 0) throw new Error(`pacu tests: ${command} ran, yet ${still.join(' and ')} is missing`);
}
