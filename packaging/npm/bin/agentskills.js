#!/usr/bin/env node
'use strict';
// A drop-in for the reference CLI (skills-ref 0.1.1's `agentskills`):
// `validate`, `read-properties` and `to-prompt`, byte for byte.
require('../lib/run.js').run('agentskills', process.argv.slice(2));
