#!/usr/bin/env bash
# Fuzzing run (not part of the tests): every libFuzzer harness of tests/fuzz/ for SECONDS each (default 60); see tests/fuzz/README and scripts/fuzz.sh.
exec "$(dirname "${BASH_SOURCE[0]}")/../scripts/fuzz.sh" "$@"
