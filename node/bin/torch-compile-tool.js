#!/usr/bin/env node
'use strict';
// `npx torch-compile-tool ARGS...` runs `tct ARGS...` (found as the library finds it:
// $TCT_BIN, then PATH) with the terminal attached, and exits as tct exits.
const { spawn } = require('node:child_process');
const { findBinary } = require('..');

let bin;
try {
  bin = findBinary();
} catch (e) {
  process.stderr.write(`tct: error: ${e.message}\n`);
  process.exit(2);
}
const child = spawn(bin, process.argv.slice(2), { stdio: 'inherit' });
// Ctrl-C reaches tct through the terminal's process group; a signal sent to this process
// alone is passed on, so tct still writes what it measured.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
child.on('error', (e) => {
  process.stderr.write(`tct: error: cannot run ${bin}: ${e.message}. Reinstall: pip install torch-compile-tool\n`);
  process.exit(2);
});
child.on('close', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);  // die of the same signal, as a shell expects
    process.kill(process.pid, signal);
  } else {
    process.exit(code);
  }
});
