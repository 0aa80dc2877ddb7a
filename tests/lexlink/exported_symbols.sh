#!/usr/bin/env bash
# Checks what liblexlink.so exports: every symbol of the C API (lexlink_*) and the C++ API
# (namespace lexlink: lexlink.h and status.h), and nothing else: no symbol of the stages
# (lexlink::text::, lexlink::urn:: ...), no std:: or third-party template instance.
# Usage: tests/lexlink/exported_symbols.sh LIBLEXLINK_SO
set -euo pipefail
lib=$1
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TWDBRVuiI]$/ {print $3}' | sort -u)
[ -n "$exported" ] || { echo "no exported symbol in $lib" >&2; exit 1; }
status=0
# Public names: the C functions, and lexlink::NAME where NAME is no stage's namespace.
stages='text|urn|scan|grammar|lexicon|extract|rewrite|document|io|common|batch|eval|cli|utf8|test'
while IFS= read -r sym; do
  case $sym in
    lexlink_*) continue ;;
    _init|_fini) continue ;;
  esac
  demangled=$(c++filt "$sym")
  if [[ $demangled =~ ^(typeinfo\ (name\ )?for\ )?(vtable\ for\ )?lexlink::([A-Za-z_]+) ]] &&
     ! [[ ${BASH_REMATCH[4]} =~ ^($stages)$ ]]; then
    continue
  fi
  echo "exported but not public: $demangled" >&2
  status=1
done <<< "$exported"
# The API itself is there. (grep -q reads from a string, not a pipe: under pipefail, a pipe's
# writer killed by SIGPIPE when grep stops early fails the check at random.)
demangled_all=$(c++filt <<< "$exported")
for want in lexlink_extractor_open lexlink_extract lexlink_markup lexlink_unmark \
    lexlink_urn_validate lexlink_urn_normalize lexlink_urn_parse lexlink_error_message; do
  grep -qx "$want" <<< "$exported" || { echo "missing: $want" >&2; status=1; }
done
for want in 'lexlink::Extractor::load(' 'lexlink::Extractor::extract(' 'lexlink::unmark' \
    'lexlink::urn_parse(' 'lexlink::Error::to_string'; do
  grep -qF "$want" <<< "$demangled_all" || { echo "missing: $want" >&2; status=1; }
done
[ $status -eq 0 ] && echo "$(wc -l <<< "$exported") symbols exported, all public"
exit $status
