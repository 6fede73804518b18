#!/usr/bin/env bash
# A pipeline for a folder of Search Studio configurations kept in git, promoted to a staging and a production
# server. The workflow beside this script (github-workflow.yml) runs it; any CI system can.
#
#   config-pipeline.sh check DIR       lint the folder, then plan it against staging and production
#   config-pipeline.sh apply DIR ENV   apply the folder to ENV (staging or production) without asking
#
# Each environment is described by variables named after it (STAGING_…, PRODUCTION_…):
#   <ENV>_URL                                   the server's base URL (the part before /api); required
#   <ENV>_TOKEN                                 a bearer token to send, or, for the provider's
#   <ENV>_ISSUER, <ENV>_CLIENT_ID, <ENV>_CLIENT_SECRET   client-credentials grant (a pipeline's own client)
# STUDIO names the studio program (default: `studio` on PATH). When GITHUB_STEP_SUMMARY names a file, each
# plan is added to it as the job's summary. No secret is ever printed: they reach studio only through its
# environment.
#
# Exit codes: 0 done (check: the plans were made, with or without changes), 1 a problem (lint, a server,
# a conflict that stops an apply), 2 wrong usage.
set -euo pipefail

studio=${STUDIO:-studio}

usage() {
  sed -n '5,6p' "$0" | sed 's/^#  *//' >&2
  exit 2
}

# The studio command for environment $1 (STAGING or PRODUCTION): `studio config <args…> --to URL`, signed in
# as that environment's variables say.
studio_for() {
  local env=$1
  shift
  local url_var="${env}_URL" token_var="${env}_TOKEN" issuer_var="${env}_ISSUER"
  local client_var="${env}_CLIENT_ID" secret_var="${env}_CLIENT_SECRET"
  local url=${!url_var:-}
  if [ -z "$url" ]; then
    echo "error: $url_var is not set: give the ${env,,} server's base URL" >&2
    return 1
  fi
  local sign_in=()
  if [ -n "${!issuer_var:-}" ]; then
    sign_in=(--issuer "${!issuer_var}" --client-id "${!client_var:-}")
  fi
  STUDIO_REMOTE_TOKEN="${!token_var:-}" STUDIO_REMOTE_CLIENT_SECRET="${!secret_var:-}" \
    "$studio" config "$@" --to "$url" "${sign_in[@]}"
}

# Adds a plan to the job's summary (or prints it when there is no summary file).
summarise() {
  local title=$1 text=$2
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    printf '### %s\n\n```\n%s\n```\n\n' "$title" "$text" >>"$GITHUB_STEP_SUMMARY"
  fi
}

check() {
  local dir=$1
  "$studio" config lint "$dir"
  local env plan rc status=0
  for env in STAGING PRODUCTION; do
    echo "== plan for ${env,,}"
    rc=0
    plan=$(studio_for "$env" plan "$dir") || rc=$?
    printf '%s\n' "$plan"
    case $rc in
      0) summarise "${env,,}: nothing to do" "$plan" ;;
      2) summarise "${env,,}: changes to make" "$plan" ;;
      *) summarise "${env,,}: the plan failed" "$plan"; status=1 ;;
    esac
  done
  return "$status"
}

apply() {
  local dir=$1 env=${2^^}
  case $env in
    STAGING | PRODUCTION) ;;
    *) echo "error: the environment is staging or production, not '$2'" >&2; exit 2 ;;
  esac
  "$studio" config lint "$dir"
  echo "== apply to ${env,,}"
  studio_for "$env" apply "$dir" --yes
}

case ${1:-} in
  check) [ $# -eq 2 ] || usage; check "$2" ;;
  apply) [ $# -eq 3 ] || usage; apply "$2" "$3" ;;
  *) usage ;;
esac
