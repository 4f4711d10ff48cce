'use strict';
// Runs skills.wasm (the `skills` command built for wasm32-wasip1) under
// Node's WASI: the user's arguments, environment and standard streams,
// and the working directory pre-opened under its own path (and named in
// PWD, which the module enters), so relative arguments, the paths the
// output shows, exit codes and SARIF are the native binary's. Nothing
// outside the working directory is reachable: a path there fails as a
// missing file.

const fs = require('node:fs');
const path = require('node:path');

// node:wasi says it is experimental on every run; that line is not ours
// to print (the native binary prints nothing of the kind). Every other
// warning goes to the listeners Node had.
function quietWasiWarning() {
  const listeners = process.listeners('warning');
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (warning.name === 'ExperimentalWarning' && /WASI/.test(warning.message)) return;
    for (const listener of listeners) listener(warning);
  });
}

// The guest's name for a host directory: the same path on POSIX; on
// Windows `C:\x\y` becomes `/C:/x/y` (WASI paths are POSIX paths).
function guestPath(dir) {
  if (process.platform !== 'win32') return dir;
  const slashed = dir.replace(/\\/g, '/');
  return slashed.startsWith('/') ? slashed : `/${slashed}`;
}

// The real paths of the executable regular files in the folders named on
// the command line (`DIR`, or `QUALIFIER=DIR`), for the module, which
// cannot see file modes (WASI has none; skills-build's wasi_modes reads
// this list), so that a bundle records the executable bits the native
// binary records. Links are followed as the native binary follows them,
// each folder is visited once, `.git` and `node_modules` are skipped, and
// at most 100,000 entries are looked at. On Windows, where the native
// binary reads no modes either, nothing is listed.
function executables(args, cwd) {
  if (process.platform === 'win32') return null;
  const found = new Set();
  const seen = new Set();
  let budget = 100000;
  const walk = (dir) => {
    let real;
    try {
      real = fs.realpathSync(dir);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    let entries;
    try {
      entries = fs.readdirSync(real);
    } catch {
      return;
    }
    for (const name of entries) {
      if (--budget < 0) return;
      if (name === '.git' || name === 'node_modules') continue;
      const full = path.join(real, name);
      let stat;
      try {
        stat = fs.statSync(full);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        walk(full);
      } else if (stat.isFile() && (stat.mode & 0o111) !== 0) {
        try {
          found.add(fs.realpathSync(full));
        } catch {
          // Gone since it was listed: the module will say so.
        }
      }
    }
  };
  for (const arg of args) {
    if (arg.startsWith('-')) continue;
    const eq = arg.indexOf('=');
    const named = eq > 0 && !arg.slice(0, eq).includes('/') ? arg.slice(eq + 1) : arg;
    const dir = path.resolve(cwd, named);
    let stat;
    try {
      stat = fs.statSync(dir);
    } catch {
      continue;
    }
    if (stat.isDirectory()) walk(dir);
  }
  return found;
}

/**
 * Runs the module as `program` (its argv[0]: `skills` or `agentskills`)
 * with `args`, and sets the process's exit code to the module's.
 */
function run(program, args) {
  quietWasiWarning();
  const { WASI } = require('node:wasi');
  const cwd = process.cwd();
  const guestCwd = guestPath(cwd);
  const env = { ...process.env, PWD: guestCwd };
  const modes = executables(args, cwd);
  if (modes) env.SKILLS_WASI_EXECUTABLES = [...modes].map(guestPath).sort().join('\n');
  const wasi = new WASI({
    version: 'preview1',
    args: [program, ...args],
    env,
    preopens: { [guestCwd]: cwd },
    returnOnExit: true,
  });
  const bytes = fs.readFileSync(path.join(__dirname, '..', 'skills.wasm'));
  const module = new WebAssembly.Module(bytes);
  const instance = new WebAssembly.Instance(module, wasi.getImportObject());
  try {
    process.exitCode = wasi.start(instance);
  } catch (error) {
    // A trap (the module's panics abort): the module has already said
    // what went wrong, if it could; 101 is a Rust panic's status.
    process.stderr.write(`error: the skills module stopped: ${error.message}\n`);
    process.exitCode = 101;
  }
}

module.exports = { run };
