#!/usr/bin/env bash
# Tests mirror the tree (tests/unit/MIRROR): every public header has tests/unit/<layer>/<name>_test.cpp
# or a line in MIRROR saying why it needs none; every MIRROR line names a header that exists and has
# no such file; a header's own file must hold at least one test case.   test_mirror.sh <source dir>
set -uo pipefail
src=$1
list="$src/tests/unit/MIRROR"
fail=0
declare -A listed
while read -r header status rest; do
  [[ -z "$header" || "$header" == \#* ]] && continue
  listed[$header]=$status
  if [ ! -f "$src/include/praxis/$header" ]; then
    echo "FAIL: MIRROR lists include/praxis/$header, which does not exist"; fail=1
  fi
  if [ "$status" != none ] || [ -z "$rest" ]; then
    echo "FAIL: MIRROR: $header: expected \"none <why>\", found \"$status $rest\""; fail=1
  fi
done < "$list"
own=0 none=0
while read -r header; do
  dir=$(dirname "$header") name=$(basename "$header" .hpp)
  if [ "$dir" = "." ]; then test_file="tests/unit/${name}_test.cpp"; else test_file="tests/unit/$dir/${name}_test.cpp"; fi
  if [ -f "$src/$test_file" ]; then
    own=$((own + 1))
    # A file with no test case in it (a placeholder, everything moved away) mirrors nothing.
    if ! grep -qE '^\s*(TEST_CASE|SCENARIO|TEMPLATE_TEST_CASE)' "$src/$test_file"; then
      echo "FAIL: $test_file (for include/praxis/$header) holds no TEST_CASE"; fail=1
    fi
    if [ -n "${listed[$header]:-}" ]; then
      echo "FAIL: include/praxis/$header has $test_file: take its line out of tests/unit/MIRROR"; fail=1
    fi
  elif [ -z "${listed[$header]:-}" ]; then
    echo "FAIL: include/praxis/$header has no $test_file and no line in tests/unit/MIRROR"; fail=1
  else
    none=$((none + 1))
  fi
done < <(cd "$src/include/praxis" && find . -name '*.hpp' -not -path '*/detail/*' | sed 's|^\./||' | sort)
echo "headers with their own unit test file: $own, without run-time logic: $none"
[ $fail -eq 0 ] && echo "PASS"
exit $fail
