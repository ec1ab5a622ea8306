'use strict';
// Node.js wrapper for the tct binary. It spawns `tct COMMAND ... --json` without a shell
// (every argument arrives literally) and returns the parsed JSON document. A non-zero exit
// becomes a typed error carrying the exit code, tct's one-line message and whatever partial
// document tct printed. No runtime dependency: child_process, fs and path only.

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

// Exit codes, as in docs/ARCHITECTURE.md.
const ExitCode = Object.freeze({
  OK: 0,
  CHECK_FAILED: 1,
  USAGE: 2,
  TARGET_FAILED: 3,
  INTERNAL: 4,
  INTERRUPTED: 130,
});

class TctError extends Error {
  constructor(message, details = {}) {
    super(message);
    this.name = 'TctError';
    this.exitCode = details.exitCode ?? null;   // null when tct never ran (spawn failed)
    this.kind = details.kind ?? null;           // doc.error.kind when tct printed a document
    this.hint = details.hint ?? null;
    this.document = details.document ?? null;   // the partial document, when there is one
    this.stderr = details.stderr ?? '';
    this.args = details.args ?? [];
    this.signal = details.signal ?? null;
  }
}
// exit 1: the check asked for failed (not usable, outputs differ, gate crossed)
class TctCheckFailedError extends TctError { constructor(m, d) { super(m, d); this.name = 'TctCheckFailedError'; } }
// exit 2: bad usage or bad input (unknown target, malformed --param, ...)
class TctUsageError extends TctError { constructor(m, d) { super(m, d); this.name = 'TctUsageError'; } }
// exit 3: the target failed (raised, crashed, hung, failed to compile)
class TctTargetError extends TctError { constructor(m, d) { super(m, d); this.name = 'TctTargetError'; } }
// exit 4: a bug in tct or its agent
class TctInternalError extends TctError { constructor(m, d) { super(m, d); this.name = 'TctInternalError'; } }
// exit 130 or killed by a signal (Ctrl-C, AbortSignal, timeout)
class TctInterruptedError extends TctError { constructor(m, d) { super(m, d); this.name = 'TctInterruptedError'; } }
// options.signal aborted: name 'AbortError' (the web platform's convention), cause = signal.reason
class TctAbortError extends TctInterruptedError {
  constructor(m, d = {}) { super(m, d); this.name = 'AbortError'; this.code = 'ABORT_ERR'; this.cause = d.cause; }
}
// the binary could not be found or started, or its output was not a JSON document
class TctSpawnError extends TctError { constructor(m, d) { super(m, d); this.name = 'TctSpawnError'; } }

function errorClassFor(code) {
  switch (code) {
    case ExitCode.CHECK_FAILED: return TctCheckFailedError;
    case ExitCode.USAGE: return TctUsageError;
    case ExitCode.TARGET_FAILED: return TctTargetError;
    case ExitCode.INTERRUPTED: return TctInterruptedError;
    default: return TctInternalError;
  }
}

function isExecutable(file) {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The tct binary: options.bin, else $TCT_BIN, else `tct` on PATH (where `pip install
 * torch-compile-tool` puts it). Throws TctSpawnError when none is found.
 */
function findBinary(options = {}) {
  const env = options.env ?? process.env;
  if (options.bin) {
    if (!isExecutable(options.bin)) throw new TctSpawnError(`tct binary not found or not executable: ${options.bin} (from the bin option). Pass the path of the tct binary, or leave bin out to use $TCT_BIN or PATH`);
    return options.bin;
  }
  if (env.TCT_BIN) {
    if (!isExecutable(env.TCT_BIN)) throw new TctSpawnError(`tct binary not found or not executable: ${env.TCT_BIN} (from $TCT_BIN). Point TCT_BIN at the tct binary, or unset it to use the one on PATH`);
    return env.TCT_BIN;
  }
  const names = process.platform === 'win32' ? ['tct.exe', 'tct'] : ['tct'];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  throw new TctSpawnError('tct binary not found on PATH. pip install torch-compile-tool (in the venv that holds your torch, then activate it), or set TCT_BIN to the binary');
}

function kebab(name) {
  return name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

// Keys of the options object that configure the wrapper, not tct flags.
const WRAPPER_KEYS = new Set(['bin', 'env', 'cwd', 'signal', 'args', 'params', 'allowCheckFailure', 'killAfterMs']);

/**
 * Options -> argv. `{ backend: 'aot_eager', budget: 2, noCheck: true, out: ['a.html'] }` ->
 * ['--backend=aot_eager', '--budget=2', '--no-check', '--out=a.html'].
 * `params: { batch: 8, name: 'x' }` -> ['--param=batch=8', '--param=name="x"'] (values
 * are JSON literals, as tct reads them); false/null/undefined are left out. `args` is
 * appended verbatim.
 */
function toArgs(options = {}) {
  const argv = [];
  for (const [key, value] of Object.entries(options)) {
    if (WRAPPER_KEYS.has(key) || value === undefined || value === null || value === false) continue;
    const flag = '--' + kebab(key);
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      // --flag=value: a value that starts with '-' is never taken for a flag.
      if (v === true) argv.push(flag);
      else argv.push(`${flag}=${String(v)}`);
    }
  }
  if (options.params) {
    for (const [k, v] of Object.entries(options.params)) {
      argv.push(`--param=${k}=${JSON.stringify(v)}`);
    }
  }
  if (options.args) argv.push(...options.args.map(String));
  return argv;
}

// tct's own words: every non-zero exit writes `tct: error: WHAT. WHAT TO DO` as its first
// stderr line (and the same error into the document); the wrapper only passes it on.
function errorLine(stderr) {
  const line = stderr.split('\n').find((l) => l.startsWith('tct: error: '));
  return line ? line.slice('tct: error: '.length).replace(/\r$/, '') : '';
}

// After an abort, tct gets SIGTERM (it then writes what it measured) and SIGKILL if it has
// not exited this many ms later.
const DEFAULT_KILL_AFTER_MS = 5000;

/**
 * Runs `tct ...argv --json` and resolves with the parsed document. Rejects with a TctError
 * subclass on a non-zero exit (with exitCode 1 and allowCheckFailure, resolves instead),
 * and with a TctAbortError (name 'AbortError') when options.signal aborts.
 */
function run(argv, options = {}) {
  return new Promise((resolve, reject) => {
    let bin;
    try {
      bin = findBinary(options);
    } catch (e) {
      reject(e);
      return;
    }
    // A job's own words (tct job: everything after '--') come after tct's flags.
    const words = argv.map(String);
    const dashes = words.indexOf('--');
    const args = dashes < 0 ? [...words, '--json'] : [...words.slice(0, dashes), '--json', ...words.slice(dashes)];
    const abortSignal = options.signal;
    if (abortSignal && abortSignal.aborted) {
      reject(new TctAbortError('aborted before tct started', { args, cause: abortSignal.reason }));
      return;
    }
    let child;
    try {
      child = spawn(bin, args, {
        shell: false,
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (e) {
      reject(new TctSpawnError(`cannot start ${bin}: ${e.message}`, { args }));
      return;
    }
    let aborted = false;
    let killTimer = null;
    const onAbort = () => {
      aborted = true;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? DEFAULT_KILL_AFTER_MS);
    };
    if (abortSignal) abortSignal.addEventListener('abort', onAbort, { once: true });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    let spawnError = null;
    child.on('error', (e) => { spawnError = e; });
    child.on('close', (code, signal) => {
      clearTimeout(killTimer);
      if (abortSignal) abortSignal.removeEventListener('abort', onAbort);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (spawnError && code === null && !signal) {
        reject(new TctSpawnError(`cannot run ${bin}: ${spawnError.message}`, { args, stderr }));
        return;
      }
      let document = null;
      if (stdout.trim()) {
        try {
          document = JSON.parse(stdout);
        } catch {
          document = null;
        }
      }
      if (aborted) {
        const how = signal ? `killed by ${signal}` : `exited ${code}`;
        reject(new TctAbortError(`aborted: tct ${how}`, { exitCode: code, signal, document, stderr, args, cause: abortSignal.reason }));
        return;
      }
      if (code === 0 || (code === ExitCode.CHECK_FAILED && options.allowCheckFailure)) {
        if (document === null) {
          reject(new TctSpawnError(`tct exited ${code} without a JSON document on stdout`, { exitCode: code, stderr, args }));
        } else {
          resolve(document);
        }
        return;
      }
      const docErr = document && document.error ? document.error : null;
      let message = errorLine(stderr);
      if (!message && signal) message = `tct was killed by ${signal}`;
      if (!message) message = `tct exited with code ${code} without an error line`;
      const Cls = signal ? TctInterruptedError : errorClassFor(code);
      reject(new Cls(message, {
        exitCode: code,
        signal,
        kind: docErr ? docErr.kind ?? null : null,
        hint: docErr ? docErr.hint ?? null : null,
        document,
        stderr,
        args,
      }));
    });
  });
}

function targetCommand(name) {
  return (target, options = {}) => {
    if (typeof target !== 'string' || target === '') {
      return Promise.reject(new TypeError(`${name}: target must be a non-empty string such as 'builtin:mlp' or 'model.py:make_model'`));
    }
    return run([name, target, ...toArgs(options)], options);
  };
}

/** tct probe: can torch.compile run here? */
function probe(options = {}) {
  return run(['probe', ...toArgs(options)], options);
}

/** tct job: the job run unchanged each way, and which way is best for it. */
function job(command, options = {}) {
  if (!Array.isArray(command) || command.length === 0) {
    return Promise.reject(new TypeError("job: command must be a non-empty array such as ['python', 'serve.py']"));
  }
  return run(['job', ...toArgs(options), '--', ...command.map(String)], options);
}

/** tct diff: compare two `tct explain --json` documents (file paths). */
function diff(before, after, options = {}) {
  return run(['diff', String(before), String(after), ...toArgs(options)], options);
}

module.exports = {
  probe,
  bench: targetCommand('bench'),
  explain: targetCommand('explain'),
  expect: targetCommand('expect'),
  audit: targetCommand('audit'),
  startup: targetCommand('startup'),
  job,
  diff,
  run,
  toArgs,
  findBinary,
  ExitCode,
  TctError,
  TctCheckFailedError,
  TctUsageError,
  TctTargetError,
  TctInternalError,
  TctInterruptedError,
  TctAbortError,
  TctSpawnError,
};
