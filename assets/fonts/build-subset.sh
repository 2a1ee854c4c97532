#!/usr/bin/env bash
# Builds the bundled Traditional Chinese font: a subset of Noto Sans CJK HK (SIL OFL 1.1, from
# Debian's fonts-noto-cjk) holding only the glyphs the screens use, renamed "Table Sans HK" so
# it never clashes with an installed Noto face. We name the face explicitly because fontconfig
# maps zh-MO to the Japanese glyph forms. HK forms are the regional convention closest to Macau.
#
# Needs (Debian): fonts-noto-cjk fonttools python3-brotli. Run: npm run build:font
set -euo pipefail
cd "$(dirname "$0")/../.."
out=assets/fonts
src_dir=/usr/share/fonts/opentype/noto
face=4 # index of "Noto Sans CJK HK" inside NotoSansCJK-*.ttc
for f in "$src_dir/NotoSansCJK-Regular.ttc" "$src_dir/NotoSansCJK-Bold.ttc"; do
  [ -f "$f" ] || { echo "missing $f: apt-get install fonts-noto-cjk" >&2; exit 1; }
done
command -v pyftsubset >/dev/null || { echo "missing pyftsubset: apt-get install fonttools python3-brotli" >&2; exit 1; }

chars=$(mktemp)
trap 'rm -f "$chars"' EXIT
npx tsx scripts/font-chars.ts > "$chars"

for weight in Regular Bold; do
  pyftsubset "$src_dir/NotoSansCJK-$weight.ttc" --font-number=$face --text-file="$chars" \
    --layout-features='*' --flavor=woff2 --output-file="$out/TableSansHK-$weight.woff2"
  /usr/bin/python3 - "$out/TableSansHK-$weight.woff2" "$weight" <<'PY'
import sys
from fontTools.ttLib import TTFont
path, weight = sys.argv[1], sys.argv[2]
font = TTFont(path)
name = font['name']
family = 'Table Sans HK'
full = f'{family} {weight}' if weight != 'Regular' else family
ps = f'TableSansHK-{weight}'
for rec in list(name.names):
    if rec.nameID in (1, 16):
        rec.string = family
    elif rec.nameID in (2, 17):
        rec.string = weight
    elif rec.nameID == 4:
        rec.string = full
    elif rec.nameID == 6:
        rec.string = ps
    elif rec.nameID == 3:
        rec.string = f'{ps};subset of Noto Sans CJK HK'
font.save(path)
PY
done

# The licence travels with the font: the font's own copyright line, then the OFL text as Debian ships it.
{
  /usr/bin/python3 -c "from fontTools.ttLib import TTFont; print(TTFont('$out/TableSansHK-Regular.woff2')['name'].getDebugName(0))"
  echo
  echo "Table Sans HK is a subset of Noto Sans CJK HK, renamed; built by assets/fonts/build-subset.sh."
  echo
  # the stand-alone "License: SIL-1.1" paragraph (the one whose text starts with a dashed rule)
  awk '/^License: SIL-1.1$/{getline l; if (l ~ /^ -+$/) {on=1; print l}; next} on && /^[A-Z][a-z]+:/{on=0} on' \
    /usr/share/doc/fonts-noto-cjk/copyright | sed -e 's/^ //' -e 's/^\.$//'
} > "$out/OFL.txt"
ls -l "$out"
