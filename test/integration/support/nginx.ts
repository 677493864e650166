import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../support/built-server.js';
import { sleep } from './cluster.js';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const SAMPLE = join(import.meta.dirname, '..', '..', '..', 'deploy', 'nginx.conf');

export interface Nginx {
  port: number;
  log(): string;
  /** nginx's `$request_id` of each request answered so far, one per line. */
  requestIds(): string;
  stop(): Promise<void>;
}

/**
 * The sample deploy/nginx.conf as a test can run it: the upstream lists `ports`, the TLS server
 * listens on plain HTTP at `port`, and the port-80 redirect is left out. Everything else (the
 * headers passed, the body limit, the /metrics block, the 413 page) is the sample's own.
 */
export function sampleConfig(port: number, upstreams: number[]): string {
  const sample = readFileSync(SAMPLE, 'utf8');
  const servers = upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=3 fail_timeout=10s;`);
  let config = sample.replace(
    /( {4}server 10\.0\.0\.\d+:3000[^\n]*\n)+/,
    `${servers.join('\n')}\n`,
  );
  config = config.replace('listen 443 ssl http2;', `listen 127.0.0.1:${port};`);
  config = config.replace(/^\s*ssl_certificate(_key)?\s[^\n]*\n/gm, '');
  config = config.replace(/server \{\s*listen 80;[^}]*\}\s*$/, '');
  if (config.includes('10.0.0.') || config.includes('ssl') || config.includes('listen 80'))
    throw new Error('deploy/nginx.conf changed shape: update sampleConfig()');
  return config;
}

/**
 * Debian's nginx in the foreground (no daemon, no master), on a random port, with a prefix,
 * configuration, temp folders and logs of its own in a temporary folder removed by stop().
 */
export async function startNginx(upstreams: number[]): Promise<Nginx> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} not found: apt-get install -y nginx`);
  const port = await freePort();
  const prefix = mkdtempSync(join(tmpdir(), 'petstore-nginx-'));
  for (const dir of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, dir));
  writeFileSync(
    join(prefix, 'nginx.conf'),
    `daemon off;
master_process off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
    log_format request_ids '$request_id';
    access_log ${prefix}/access.log request_ids;
    client_body_temp_path ${prefix}/body;
    proxy_temp_path ${prefix}/proxy;
    fastcgi_temp_path ${prefix}/fastcgi;
    uwsgi_temp_path ${prefix}/uwsgi;
    scgi_temp_path ${prefix}/scgi;
${sampleConfig(port, upstreams)}
}
`,
  );
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log')],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const requestIds = () => {
    const file = join(prefix, 'access.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  };
  const log = () => {
    const file = join(prefix, 'error.log');
    return output + (existsSync(file) ? readFileSync(file, 'utf8') : '');
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(prefix, { recursive: true, force: true });
  };
  for (let waited = 0; !(await listening(port)); waited += 50) {
    if (child.exitCode !== null || waited > 10_000) {
      const reason = log();
      await stop();
      throw new Error(`nginx did not start:\n${reason}`);
    }
    await sleep(50);
  }
  return { port, log, requestIds, stop };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
