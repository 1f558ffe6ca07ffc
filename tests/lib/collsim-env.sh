# Sourced by the shell tests (tests/cli/*.sh, tests/repro/*.sh): $collsim is $COLLSIM, else
# ./collsim, and $src is $COLLSIM_SRCDIR, else the folder above tests/.  A
# test whose $collsim is not an executable file fails here (exit 1, with a
# message), it never passes or skips for want of the binary.
collsim=${COLLSIM:-./collsim}
src=${COLLSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
if [ ! -f "$collsim" ] || [ ! -x "$collsim" ]; then
  echo "$(basename "$0"): no executable collsim at '$collsim' (set COLLSIM to the binary; make check sets it)" >&2
  exit 1
fi

# stdin without AddressSanitizer's notice about SimGrid's stack switches,
# which the sanitizer build prints once per process that ran actors (the
# sanitizer runtime's three lines, not collsim's: tests/lib/harness.c drops
# them too).
without_asan_notice() {
  grep -v -e 'ASan is ignoring requested __asan_handle_no_return' -e 'False positive error reports may follow' \
    -e 'google/sanitizers/issues/189' || true
}

# field NAME: the value of the first field NAME of the one-record JSON on
# stdin (a number, a word or a string without commas), quotes removed.
field() {
  local json re
  json=$(cat)
  re="\"$1\": \"?([^,}\"]*)"
  [[ $json =~ $re ]] && echo "${BASH_REMATCH[1]}"
}

# other_experiment FILE: a one-point experiment named "other" (the sweep
# tests gather a plan with it to check that another experiment's plan is
# refused).
other_experiment() {
  printf '%s\n' 'name: other' 'algorithms: [centralized]' 'n: [64]' 'f: [1.0]' 'k: [3]' > "$1"
}
