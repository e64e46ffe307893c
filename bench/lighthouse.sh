#!/usr/bin/env bash
# Lighthouse's four category scores (performance, accessibility, best practices, SEO) for the
# main pages, on a phone (Lighthouse's mobile form factor and throttling), with Debian's
# Chromium, against the app served as `make run` serves it on a free port of 127.0.0.1.
#
# npm's lighthouse@12.2.3 is installed into bench/.lighthouse/ (ignored by git, never global);
# Debian's nodejs and npm are installed when they are missing.
#
# Run: bench/lighthouse.sh [--json]
set -euo pipefail
SELF="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$SELF")/.."

# The pages measured; add a path to measure another.
# The reference: its contents and its heaviest section (the most cards drawn).
PAGES=(/en/ /en/learn/ /en/quiz/winner /en/score/ /en/rules/ /en/rules/trumps)
VERSION=12.2.3
LH_DIR=bench/.lighthouse
LH="$LH_DIR/node_modules/.bin/lighthouse"
CHROME_FLAGS="--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-component-update --disable-sync"
PY=.venv/bin/python
[[ -x "$PY" ]] || PY=python3

if [[ "${1:-}" != "--served" ]]; then
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "node or npm is missing: installing Debian's nodejs and npm" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >&2
  fi
  [[ -x /usr/bin/chromium ]] || { echo "/usr/bin/chromium is missing: run make browser" >&2; exit 1; }
  if [[ "$("$LH" --version 2>/dev/null || true)" != "$VERSION" ]]; then
    mkdir -p "$LH_DIR"
    npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$LH_DIR" "lighthouse@$VERSION" >&2
  fi
  # Serve the app while the rest of this script runs (bench/_serve.py stops it afterwards).
  exec "$PY" bench/_serve.py -- "$SELF" --served "$@"
fi
shift
JSON=0
[[ "${1:-}" == "--json" ]] && JSON=1

tmp=$(mktemp -d -t bench-lighthouse-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
for page in "${PAGES[@]}"; do
  name=$(printf '%s' "$page" | tr -c 'a-zA-Z0-9' '_')
  echo "lighthouse $page ..." >&2
  CHROME_PATH=/usr/bin/chromium timeout 300 "$LH" "$BENCH_BASE$page" \
    --quiet --form-factor=mobile --output=json --output-path="$tmp/$name.json" \
    --only-categories=performance,accessibility,best-practices,seo \
    --chrome-flags="$CHROME_FLAGS" >&2
done

"$PY" - "$tmp" "$JSON" "${PAGES[@]}" <<'EOF'
import json, sys
from pathlib import Path

folder, as_json, pages = Path(sys.argv[1]), sys.argv[2] == "1", sys.argv[3:]
rows = []
for page in pages:
    name = "".join(c if c.isascii() and c.isalnum() else "_" for c in page)
    report = json.loads((folder / f"{name}.json").read_text())
    scores = {key: round(100 * cat["score"]) if cat["score"] is not None else None
              for key, cat in report["categories"].items()}
    audits = report["audits"]
    rows.append({"page": page, **scores,
                 "fcp_s": round(audits["first-contentful-paint"]["numericValue"] / 1000, 2),
                 "lcp_s": round(audits["largest-contentful-paint"]["numericValue"] / 1000, 2),
                 "tbt_ms": round(audits["total-blocking-time"]["numericValue"]),
                 "cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
                 "lighthouse": report["lighthouseVersion"]})
if as_json:
    print(json.dumps(rows, indent=1))
    sys.exit()
print(f"Lighthouse {rows[0]['lighthouse']}, mobile, Chromium at /usr/bin/chromium")
head = f"{'page':<18} {'perf':>4} {'a11y':>4} {'best':>4} {'seo':>4} | {'FCP s':>6} {'LCP s':>6} {'TBT ms':>6} {'CLS':>6}"
print(head)
print("-" * len(head))
for r in rows:
    print(f"{r['page']:<18} {r['performance']:>4} {r['accessibility']:>4} {r['best-practices']:>4} {r['seo']:>4} | "
          f"{r['fcp_s']:>6.2f} {r['lcp_s']:>6.2f} {r['tbt_ms']:>6} {r['cls']:>6.3f}")
EOF
