#!/usr/bin/env bash
# Refresh the browser Markdown libraries the web UI loads from the package (no CDN: it runs offline).
#
#   bash scripts/vendor_web_markdown.sh                     # the versions pinned below
#   MARKDOWN_IT=15.0.3 DOMPURIFY=3.5.0 CJK_FRIENDLY=3.0.0 EAW=1.7.0 bash scripts/vendor_web_markdown.sh
#
# `npm pack` fetches each package tarball from the npm registry into a temp directory (no install,
# no install scripts); the prebuilt browser files and the licence files are copied unchanged to
# src/knowzero/web/vendor/<name>/: markdown-it and DOMPurify as minified UMD files (globals), the
# markdown-it-cjk-friendly plugin and its one dependency get-east-asian-width as ES modules (index.html
# maps the bare specifier "get-east-asian-width"). Update src/knowzero/web/vendor/README.md too.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
VENDOR="$REPO/src/knowzero/web/vendor"
MARKDOWN_IT=${MARKDOWN_IT:-15.0.3}
DOMPURIFY=${DOMPURIFY:-3.5.0}
CJK_FRIENDLY=${CJK_FRIENDLY:-3.0.0}
EAW=${EAW:-1.7.0}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kz-vendor.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

cd "$WORK"
npm pack --silent "markdown-it@$MARKDOWN_IT" "dompurify@$DOMPURIFY" "markdown-it-cjk-friendly@$CJK_FRIENDLY" \
  "get-east-asian-width@$EAW" >/dev/null
mkdir md dp cjk eaw
tar xzf "markdown-it-$MARKDOWN_IT.tgz" -C md
tar xzf "dompurify-$DOMPURIFY.tgz" -C dp
tar xzf "markdown-it-cjk-friendly-$CJK_FRIENDLY.tgz" -C cjk
tar xzf "get-east-asian-width-$EAW.tgz" -C eaw

mkdir -p "$VENDOR/markdown-it" "$VENDOR/dompurify"
cp md/package/dist/browser/markdown-it.umd.min.js md/package/LICENSE "$VENDOR/markdown-it/"
cp dp/package/dist/purify.min.js dp/package/LICENSE "$VENDOR/dompurify/"
[ -f dp/package/LICENSE-MPL ] && cp dp/package/LICENSE-MPL "$VENDOR/dompurify/"
mkdir -p "$VENDOR/markdown-it-cjk-friendly" "$VENDOR/get-east-asian-width"
cp cjk/package/dist/index.js cjk/package/LICENSE "$VENDOR/markdown-it-cjk-friendly/"
cp eaw/package/index.js eaw/package/lookup.js eaw/package/lookup-data.js eaw/package/utilities.js eaw/package/license \
  "$VENDOR/get-east-asian-width/"

# The UMD bundle includes markdown-it's runtime dependencies: their licences go beside it.
OUT="$VENDOR/markdown-it/LICENSE-bundled.txt"
echo "Licences of the packages bundled into markdown-it.umd.min.js (markdown-it $MARKDOWN_IT's dependencies)." > "$OUT"
for dep in entities linkify-it mdurl punycode.js uc.micro; do
  range=$(node -p "require('./md/package/package.json').dependencies['$dep']")
  mkdir -p "dep-$dep"
  tgz=$(npm pack --silent "$dep@$range")
  tar xzf "$tgz" -C "dep-$dep"
  { echo; echo "==== $dep $(node -p "require('./dep-$dep/package/package.json').version") ($(node -p "require('./dep-$dep/package/package.json').license")) ===="; echo
    cat dep-"$dep"/package/LICENSE*; } >> "$OUT"
done
(cd "$VENDOR" && sha256sum markdown-it/markdown-it.umd.min.js dompurify/purify.min.js markdown-it-cjk-friendly/index.js \
  get-east-asian-width/*.js)
