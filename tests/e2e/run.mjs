#!/usr/bin/env node
// Browser tests: start the api, its RQ worker and the web on their own ports against a fresh
// database and Redis db, with a local SMTP sink for the mail the worker sends (verification codes,
// read by the specs from tests/e2e/artifacts/mailbox.jsonl); run tests/e2e/specs with node's test
// runner (Chromium from Debian through playwright-core), stop everything, exit with the tests' status.
//
// Environment (all optional):
//   E2E_API_PORT (5100), E2E_WEB_PORT (3100), E2E_OAUTH_PORT (5101: the demo sign-in provider)
//   E2E_DATABASE_URL  postgresql+psycopg://postgres@127.0.0.1:5432/coldchain_e2e  (dropped and
//                     created again on every run; a sqlite:/// URL is deleted instead)
//   E2E_REDIS_URL     redis://127.0.0.1:6379/15  (flushed on every run: jobs, rate limits)
//   CHROMIUM          /usr/bin/chromium
//   E2E_DEVICE_KEY_SECRET  the api's DEVICE_KEY_SECRET (specs derive device credentials from it)
//   E2E_SPECS         comma-separated spec files to run instead of all of tests/e2e/specs/
//   E2E_TEST_NAME     only the tests whose names match this pattern (node --test-name-pattern)
//
// The demo fleet runs as a device simulator over HTTP (`flask simulate --no-gaps`): it uploads the
// loggers' readings and acknowledges the settings the specs send, every 2 s.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMailSink } from './mailsink.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ARTIFACTS = path.join(ROOT, 'tests/e2e/artifacts');
const API_PORT = process.env.E2E_API_PORT || '5100';
const WEB_PORT = process.env.E2E_WEB_PORT || '3100';
// The demo's social sign-in provider (tests/demo_oauth.py), the default site's WeChat app.
const OAUTH_PORT = process.env.E2E_OAUTH_PORT || '5101';
const DATABASE_URL = process.env.E2E_DATABASE_URL || 'postgresql+psycopg://postgres@127.0.0.1:5432/coldchain_e2e';
const REDIS_URL = process.env.E2E_REDIS_URL || 'redis://127.0.0.1:6379/15';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const FLASK = path.join(ROOT, '.venv/bin/flask');
const PYTHON = path.join(ROOT, '.venv/bin/python');
const RQ = path.join(ROOT, '.venv/bin/rq');
const MAILBOX = path.join(ARTIFACTS, 'mailbox.jsonl');
const READY_TIMEOUT_MS = 90_000;

// Device credentials of the demo fleet derive from this (the specs upload readings as a device). One
// per run (by its port): devices publish on the machine's one MQTT broker, and a run's subscriber must
// not accept another run's messages for a GUID both databases hold.
const DEVICE_KEY_SECRET = process.env.E2E_DEVICE_KEY_SECRET || `e2e-device-key-secret-${WEB_PORT}`;
const MQTT_PORT = process.env.E2E_MQTT_PORT || '1883';

const apiEnv = {
  ...process.env,
  DATABASE_URL,
  REDIS_URL,
  DEVICE_KEY_SECRET,
  MQTT_URL: `mqtt://127.0.0.1:${MQTT_PORT}`,
  // A subscription group of this run's own: each run's subscriber receives every message.
  MQTT_SHARE_GROUP: `e2e-${WEB_PORT}`,
  CAPTCHA_REQUIRED: '0',
  TRUSTED_PROXIES: '127.0.0.1,::1',
  PUBLIC_BASE_URLS: `default=http://localhost:${WEB_PORT},junjia=http://junjia.localhost:${WEB_PORT}`,
  DEMO_OAUTH_URL: `http://127.0.0.1:${OAUTH_PORT}`,
  // The local fakes (OAuth provider, SMTP sink, the province) are the listed outbound exceptions.
  OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  FLASK_DEBUG: '0',
};
const webEnv = {
  ...process.env,
  API_URL: `http://127.0.0.1:${API_PORT}`,
  WEB_PORT,
  // A build of its own, so an e2e run never replaces a development build.
  NEXT_DIST_DIR: '.next-e2e',
  NEXT_TELEMETRY_DISABLED: '1',
};

const children = [];
const started = Date.now();

function log(message) {
  console.log(`[e2e +${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);
}

class Failure extends Error {
  constructor(message, logFile) {
    super(message);
    this.logFile = logFile;
  }
}

function fail(message, logFile) {
  throw new Failure(message, logFile);
}

function report(error) {
  console.error(`[e2e] ${error instanceof Failure ? error.message : error.stack || error}`);
  if (error.logFile && fs.existsSync(error.logFile)) {
    console.error(`--- last lines of ${path.relative(ROOT, error.logFile)} ---`);
    console.error(fs.readFileSync(error.logFile, 'utf8').split('\n').slice(-40).join('\n'));
  }
}

/** Run a command to completion, its output into a log file; fail the run when it fails (no retry). */
function step(name, command, args, options = {}) {
  const logFile = path.join(ARTIFACTS, `${name}.log`);
  log(`${name}: ${command} ${args.join(' ')}`);
  const out = fs.openSync(logFile, 'w');
  const result = spawnSync(command, args, { cwd: ROOT, stdio: ['ignore', out, out], ...options });
  fs.closeSync(out);
  if (result.status !== 0) fail(`${name} failed (exit ${result.status ?? result.signal})`, logFile);
}

/** Start a long-running process in its own process group, its output into a log file. */
function background(name, command, args, options) {
  const logFile = path.join(ARTIFACTS, `${name}.log`);
  log(`${name}: ${command} ${args.join(' ')}`);
  const out = fs.openSync(logFile, 'w');
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', out, out], detached: true, ...options });
  fs.closeSync(out);
  child.logFile = logFile;
  child.on('exit', (code, signal) => {
    child.exited = true;
    if (!stopping) log(`${name} exited early (${code ?? signal})`);
  });
  children.push(child);
  return child;
}

let stopping = false;
let mailServer = null;

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** SIGTERM to every process group we started, SIGKILL to those still there after 5 s. */
async function stopAll() {
  stopping = true;
  mailServer?.close();
  const running = children.filter((child) => !child.exited);
  for (const child of running) signalGroup(child, 'SIGTERM');
  await Promise.all(
    running.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exited) return resolve();
          const timer = setTimeout(() => {
            signalGroup(child, 'SIGKILL');
            resolve();
          }, 5_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
        }),
    ),
  );
}

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port: Number(port), host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function portFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port: Number(port), host: '0.0.0.0' }, () => server.close(() => resolve(true)));
  });
}

async function waitFor(name, child, url, headers = {}) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exited) fail(`${name} stopped before it was ready`, child.logFile);
    try {
      const response = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(5_000) });
      if (response.status === 200) return log(`${name} ready`);
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  fail(`${name} not ready after ${READY_TIMEOUT_MS / 1000}s (${url})`, child.logFile);
}

/** Wait until a background process wrote a line matching `pattern` into its log. */
async function waitForLog(name, child, pattern) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exited) fail(`${name} stopped before it was ready`, child.logFile);
    if (pattern.test(fs.readFileSync(child.logFile, 'utf8'))) return log(`${name} ready`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  fail(`${name} not ready after ${READY_TIMEOUT_MS / 1000}s`, child.logFile);
}

/** Empty the e2e Redis database: no queued job or rate-limit counter of an earlier run is left. */
function resetRedis() {
  const db = Number(new URL(REDIS_URL).pathname.replace(/^\//, '') || '0');
  if (!db) fail(`refusing to flush Redis database 0 (${REDIS_URL}): give the e2e run a database of its own`);
  step('redis-flush', PYTHON, ['-c', 'import redis, sys; redis.Redis.from_url(sys.argv[1]).flushdb()', REDIS_URL]);
}

/** Drop and create the e2e database, so every run starts from an empty schema. */
function resetDatabase() {
  if (DATABASE_URL.startsWith('sqlite:///')) {
    fs.rmSync(DATABASE_URL.slice('sqlite:///'.length), { force: true });
    return;
  }
  const url = new URL(DATABASE_URL);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/^[\w-]*e2e[\w-]*$/.test(name)) fail(`refusing to drop database "${name}": its name must contain "e2e"`);
  const args = ['-h', url.hostname || '127.0.0.1', '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres')];
  const env = { ...process.env, PGPASSWORD: decodeURIComponent(url.password) };
  step('dropdb', 'dropdb', [...args, '--if-exists', '--force', name], { env });
  step('createdb', 'createdb', [...args, name], { env });
}

async function main() {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  if (!fs.existsSync(CHROMIUM)) fail(`${CHROMIUM} is missing: apt-get install -y chromium fonts-wqy-microhei`);
  if (!fs.existsSync(FLASK)) fail(`${FLASK} is missing: install the api into .venv first`);
  for (const port of [API_PORT, WEB_PORT, OAUTH_PORT]) {
    if (!(await portFree(port))) fail(`port ${port} is busy; stop what runs there or set E2E_API_PORT / E2E_WEB_PORT / E2E_OAUTH_PORT`);
  }
  // The journeys feed readings as devices do, over MQTT (make test starts Mosquitto: make services).
  if (!(await listening(MQTT_PORT))) fail(`no MQTT broker on port ${MQTT_PORT}: run make services (or set E2E_MQTT_PORT)`);

  resetDatabase();
  resetRedis();
  const mail = await startMailSink(MAILBOX);
  mailServer = mail.server;
  Object.assign(apiEnv, { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(mail.port), SMTP_STARTTLS: '0', SMTP_USER: '', SMTP_PASSWORD: '' });
  log(`mail sink on port ${mail.port}, mailbox ${path.relative(ROOT, MAILBOX)}`);
  step('api-migrate', FLASK, ['--app', 'api', 'db', 'upgrade'], { env: apiEnv });
  step('api-seed', FLASK, ['--app', 'api', 'seed-demo'], { env: apiEnv });
  const api = background('api', FLASK, ['--app', 'api', 'run', '--host', '127.0.0.1', '--port', API_PORT], { env: apiEnv });
  const oauth = background('oauth', PYTHON, ['-m', 'tests.demo_oauth', OAUTH_PORT], { env: apiEnv });
  const worker = background('worker', RQ, ['worker', '--worker-class', 'api.jobs.worker.AppWorker', '--url', REDIS_URL, '--with-scheduler', 'notifications', 'exports', 'reports', 'default'], {
    env: apiEnv,
  });
  // From scratch each time, once: the build bounds its own file reads (web/scripts/limit-file-io.mjs),
  // so Next's build-trace step no longer runs out of open files (EMFILE) and nothing is retried.
  fs.rmSync(path.join(ROOT, 'web', webEnv.NEXT_DIST_DIR), { recursive: true, force: true });
  step('web-build', 'npm', ['run', 'build', '-w', 'web'], { env: webEnv });
  const web = background('web', 'npm', ['run', 'start', '-w', 'web'], { env: webEnv });
  await waitFor('api', api, `http://127.0.0.1:${API_PORT}/api/health`);
  await waitFor('web', web, `http://127.0.0.1:${WEB_PORT}/user/login`, { Host: `localhost:${WEB_PORT}` });
  await waitForLog('worker', worker, /Listening on|listening on/);
  await waitForLog('oauth', oauth, /demo sign-in provider on/);
  const ingest = background('mqtt-ingest', FLASK, ['--app', 'api', 'ingest', 'mqtt', '--client-id', `e2e-ingest-${WEB_PORT}`], { env: apiEnv });
  await waitForLog('mqtt-ingest', ingest, /MQTT ingest .* ready/);
  const simulatorArgs = ['--app', 'api', 'simulate', '--transport', 'http', '--api-url', `http://127.0.0.1:${API_PORT}`, '--host', 'localhost', '--tick', '2', '--no-gaps'];
  const simulator = background('simulator', FLASK, simulatorArgs, { env: apiEnv });
  await waitForLog('simulator', simulator, /simulating \d+ devices/);

  log('running tests/e2e/specs');
  // Not spawnSync: this process keeps serving the mail sink while the tests run.
  const specs = process.env.E2E_SPECS ? process.env.E2E_SPECS.split(',') : ['tests/e2e/specs/'];
  const only = process.env.E2E_TEST_NAME ? [`--test-name-pattern=${process.env.E2E_TEST_NAME}`] : [];
  const tests = spawn(process.execPath, ['--test', '--test-concurrency=1', ...only, ...specs], {
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      E2E_WEB_PORT: WEB_PORT,
      E2E_API_PORT: API_PORT,
      E2E_MAILBOX: MAILBOX,
      E2E_DATABASE_URL: DATABASE_URL,
      E2E_DEVICE_KEY_SECRET: DEVICE_KEY_SECRET,
      E2E_MQTT_PORT: MQTT_PORT,
      CHROMIUM,
    },
  });
  const status = await new Promise((resolve) => tests.on('exit', (code, signal) => resolve(code ?? signal)));
  log(`tests exited ${status}`);
  return typeof status === 'number' ? status : 1;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    void stopAll().then(() => process.exit(130));
  });
}

let status = 1;
try {
  status = await main();
} catch (error) {
  report(error);
}
await stopAll();
process.exit(status);
