#!/bin/sh
# The test files for `npm test`, the slowest first (each file's time alone on the 2-core machine, in
# docs/architecture.md): with two files at a time, starting the long ones first keeps one of them from
# running alone at the end. Every test/*.test.ts is listed exactly once.
first="test/site.test.ts test/site-explorer.test.ts test/fuzz-store.test.ts test/fuzz-import.test.ts
test/site-build-guard.test.ts test/site-degenerate.test.ts test/cli.test.ts test/site-real.test.ts test/cli-worker.test.ts"
for f in $first; do echo "$f"; done
for f in test/*.test.ts; do
  case " $(echo $first) " in
    *" $f "*) ;;
    *) echo "$f" ;;
  esac
done
