#!/usr/bin/env node
'use strict';
// `skills`, every command the WebAssembly build has (docs/ci.md).
require('../lib/run.js').run('skills', process.argv.slice(2));
