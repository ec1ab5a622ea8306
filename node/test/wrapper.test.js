'use strict';
// The wrapper against the real tct binary ($TCT_BIN, else ../build/tct) and the project's
// Python ($TCT_PYTHON, else ../.venv/bin/python).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const tct = require('..');

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = process.env.TCT_BIN || path.join(ROOT, 'build', 'tct');
const PYTHON = process.env.TCT_PYTHON || path.join(ROOT, '.venv', 'bin', 'python');
const base = { bin: BIN, python: PYTHON, quiet: true };

function tmpdir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'tct-node-'));
}

// A name a shell would split, unquote, or run: spaces, both quotes, ';', '$()' and backticks.
const NASTY = `dir with spaces "dq" 'sq'; $(touch PWNED) \`touch PWNED2\``;

test('toArgs turns options into --flag=value arguments', () => {
  assert.deepEqual(
    tct.toArgs({ backend: 'aot_eager', budget: 2, noCheck: true, raw: false, out: ['a.json', 'b.html'], quiet: null,
      params: { batch: 8, name: 'a b', list: [1, 2] }, args: ['--seed', '3'], bin: '/x', allowCheckFailure: true }),
    ['--backend=aot_eager', '--budget=2', '--no-check', '--out=a.json', '--out=b.html',
      '--param=batch=8', '--param=name="a b"', '--param=list=[1,2]', '--seed', '3']);
});

test('findBinary: the bin option, then TCT_BIN, then PATH', () => {
  assert.equal(tct.findBinary({ bin: BIN }), BIN);
  assert.equal(tct.findBinary({ env: { TCT_BIN: BIN, PATH: '' } }), BIN);
  const dir = tmpdir();
  fs.symlinkSync(BIN, path.join(dir, 'tct'));
  assert.equal(tct.findBinary({ env: { PATH: `/nonexistent${path.delimiter}${dir}` } }), path.join(dir, 'tct'));
  assert.throws(() => tct.findBinary({ env: { PATH: '/nonexistent' } }), tct.TctSpawnError);
  assert.throws(() => tct.findBinary({ bin: '/nonexistent/tct' }), tct.TctSpawnError);
});

test('a missing binary rejects with TctSpawnError', async () => {
  await assert.rejects(tct.probe({ bin: '/nonexistent/tct' }), (e) => e instanceof tct.TctSpawnError && e.exitCode === null);
});

test('probe returns the parsed, typed document', async () => {
  const doc = await tct.probe(base);
  assert.equal(doc.schema, 'tct/1');
  assert.equal(doc.command, 'probe');
  assert.equal(doc.exit_code, 0);
  assert.equal(doc.error, null);
  assert.ok(['usable', 'usable_with_caveats'].includes(doc.probe.verdict));
  assert.match(doc.probe.facts.torch.version, /^2\./);
  assert.equal(doc.environment.interpreter.path, PYTHON);
});

test('startup returns each start mode with its time to the first output', async () => {
  const doc = await tct.startup('builtin:tiny_ops', { ...base, modes: 'eager', repeats: 1 });
  assert.equal(doc.command, 'startup');
  assert.equal(doc.exit_code, 0);
  const [mode] = doc.startup.modes;
  assert.equal(mode.mode, 'eager');
  assert.equal(mode.error, null);
  assert.ok(mode.first_output_ns > 0);
  assert.equal(mode.starts.length, 1);
});

test('arguments with spaces, quotes, ; and $() arrive literally (no shell)', async () => {
  const dir = tmpdir();
  const nasty = path.join(dir, NASTY);
  fs.mkdirSync(nasty);
  // A script, not a symlink: a venv's python finds its pyvenv.cfg next to the path it was
  // started by, so a symlink elsewhere would not see the venv's torch.
  const python = path.join(nasty, `py "q" ; $(x)`);
  fs.writeFileSync(python, `#!/bin/sh\nexec '${PYTHON}' "$@"\n`, { mode: 0o755 });
  const doc = await tct.probe({ ...base, python, cwd: dir });
  assert.equal(doc.environment.interpreter.path, python);
  assert.equal(doc.environment.interpreter.chosen_by, '--python');
  for (const f of ['PWNED', 'PWNED2']) {
    assert.ok(!fs.existsSync(path.join(dir, f)), `${f} exists: a shell ran the argument`);
    assert.ok(!fs.existsSync(path.join(nasty, f)));
  }
});

test('a failure is a typed error with exit code, message and the partial document', async () => {
  const dir = tmpdir();
  const missing = path.join(dir, `no such "python"; $(touch PWNED)`);
  await assert.rejects(tct.probe({ ...base, python: missing, cwd: dir }), (e) => {
    assert.ok(e instanceof tct.TctUsageError, e.name);
    assert.ok(e instanceof tct.TctError);
    assert.equal(e.exitCode, tct.ExitCode.USAGE);
    assert.equal(e.kind, 'usage');
    assert.ok(e.message.includes(missing), e.message);
    assert.ok(!e.message.startsWith('tct: error:'));
    assert.equal(e.document.exit_code, 2);
    assert.equal(e.document.error.kind, 'usage');
    assert.ok(e.stderr.includes('tct: error:'));
    return true;
  });
  assert.ok(!fs.existsSync(path.join(dir, 'PWNED')));
});

test('bad usage (unknown flag) is a TctUsageError', async () => {
  await assert.rejects(tct.probe({ ...base, noSuchFlag: true }), (e) =>
    e instanceof tct.TctUsageError && e.exitCode === 2 && /no-such-flag/.test(e.message));
});

test('a failed check (exit 1) rejects, or resolves with allowCheckFailure', async () => {
  // An interpreter without torch: probe's verdict is not_usable, exit 1.
  const dir = tmpdir();
  const fake = path.join(dir, 'python');
  fs.writeFileSync(fake, `#!/bin/sh\nPYTHONNOUSERSITE=1 exec /usr/bin/python3 -S "$@"\n`, { mode: 0o755 });
  const opts = { ...base, python: fake };
  await assert.rejects(tct.probe(opts), (e) => {
    assert.ok(e instanceof tct.TctCheckFailedError, `${e.name}: ${e.message}`);
    assert.equal(e.exitCode, 1);
    assert.equal(e.document.probe.verdict, 'not_usable');
    assert.match(e.message, /not usable/);
    // tct's own line, not a message the wrapper made up: the document holds the same error.
    assert.equal(e.kind, 'not_usable');
    assert.ok(e.message.startsWith(e.document.error.message), e.message);
    return true;
  });
  await assert.rejects(tct.bench('builtin:mlp', opts), (e) => {
    assert.ok(e instanceof tct.TctUsageError, `${e.name}: ${e.message}`);
    assert.equal(e.message, `torch is not installed in ${fake}; pip install torch there or pass --python`);
    return true;
  });
  const doc = await tct.probe({ ...opts, allowCheckFailure: true });
  assert.equal(doc.exit_code, 1);
  assert.equal(doc.probe.verdict, 'not_usable');
});

test('an unknown target is a TctUsageError carrying the document', async () => {
  await assert.rejects(tct.bench('builtin:no_such_example', base), (e) => {
    assert.ok(e instanceof tct.TctUsageError, `${e.name}: ${e.message}`);
    assert.equal(e.exitCode, 2);
    assert.equal(e.document.command, 'bench');
    assert.ok(e.document.error);
    return true;
  });
});

test('a target that raises is a TctTargetError (exit 3)', async () => {
  const dir = tmpdir();
  const file = path.join(dir, 'boom; $(touch PWNED).py');
  fs.writeFileSync(file, 'def make():\n    raise RuntimeError("boom from the factory")\n');
  await assert.rejects(tct.bench(`${file}:make`, { ...base, cwd: dir }), (e) => {
    assert.ok(e instanceof tct.TctTargetError, `${e.name}: ${e.message}`);
    assert.equal(e.exitCode, 3);
    assert.match(e.message, /boom from the factory/);
    return true;
  });
  assert.ok(!fs.existsSync(path.join(dir, 'PWNED')));
});

test('aborting stops tct and rejects with an AbortError', async () => {
  const ac = new AbortController();
  const p = tct.probe({ ...base, smoke: true, signal: ac.signal });
  setTimeout(() => ac.abort(), 300);
  await assert.rejects(p, (e) => e.name === 'AbortError' && e instanceof tct.TctAbortError && e instanceof tct.TctInterruptedError);
  await assert.rejects(tct.probe({ ...base, signal: AbortSignal.abort() }), (e) => e.name === 'AbortError');
});

test('killAfterMs: a tct that ignores SIGTERM is killed', async () => {
  // The stub says when its SIGTERM handler is in place: aborting earlier (node starts slowly
  // on a loaded machine) would kill it with the SIGTERM it is meant to ignore.
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'tct-stubborn-'));
  const stubborn = path.join(dir, 'tct');
  const ready = path.join(dir, 'ready');
  fs.writeFileSync(stubborn, `#!${process.execPath}\nprocess.on('SIGTERM', () => {});\n` +
    `require('fs').writeFileSync(${JSON.stringify(ready)}, '1');\nsetInterval(() => {}, 1000);\n`, { mode: 0o755 });
  const ac = new AbortController();
  const p = tct.probe({ bin: stubborn, signal: ac.signal, killAfterMs: 200 });
  for (let waited = 0; !fs.existsSync(ready) && waited < 20000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  const aborted = Date.now();
  ac.abort();
  await assert.rejects(p, (e) => e.name === 'AbortError' && e.signal === 'SIGKILL');
  assert.ok(Date.now() - aborted < 4000);
});

test('the torch-compile-tool bin forwards to tct, or names the pip package', () => {
  const { spawnSync } = require('node:child_process');
  const cli = path.join(__dirname, '..', 'bin', 'torch-compile-tool.js');
  const ok = spawnSync(process.execPath, [cli, 'probe', '--json', '--python', PYTHON],
    { env: { ...process.env, TCT_BIN: BIN }, encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).command, 'probe');
  const usage = spawnSync(process.execPath, [cli, 'bench'], { env: { ...process.env, TCT_BIN: BIN }, encoding: 'utf8' });
  assert.equal(usage.status, 2, 'tct\'s own exit code comes through');
  const missing = spawnSync(process.execPath, [cli, 'probe'], { env: { PATH: '/nonexistent' }, encoding: 'utf8' });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^tct: error: .*\. .*pip install torch-compile-tool/);
  const wrong = spawnSync(process.execPath, [cli, 'probe'], { env: { TCT_BIN: '/nonexistent/tct' }, encoding: 'utf8' });
  assert.equal(wrong.status, 2);
  assert.match(wrong.stderr, /^tct: error: .*\/nonexistent\/tct \(from \$TCT_BIN\)\. Point TCT_BIN at the tct binary/);
  // An executable file that cannot start (its interpreter is missing).
  const broken = path.join(tmpdir(), 'tct');
  fs.writeFileSync(broken, '#!/nonexistent/interpreter\n', { mode: 0o755 });
  const unstartable = spawnSync(process.execPath, [cli, 'probe'], { env: { TCT_BIN: broken }, encoding: 'utf8' });
  assert.equal(unstartable.status, 2);
  assert.match(unstartable.stderr, /^tct: error: cannot run .*\. Reinstall: pip install torch-compile-tool/);
});

test('audit returns one document with its steps', async () => {
  const doc = await tct.audit('builtin:tiny_ops', { ...base, skip: 'bench,expect' });
  assert.equal(doc.command, 'audit');
  assert.deepEqual(doc.audit.steps.map((s) => [s.name, s.status]),
    [['probe', 'ok'], ['explain', 'ok'], ['expect', 'skipped'], ['bench', 'skipped']]);
  assert.equal(doc.explain.graph_break_count, 0);
  assert.ok(['usable', 'usable_with_caveats'].includes(doc.probe.verdict));
});

test('a target rejects a non-string target', async () => {
  await assert.rejects(tct.bench(undefined, base), TypeError);
});
