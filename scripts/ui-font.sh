#!/usr/bin/env bash
# Makes the desktop page's own font, ui/src/assets/fonts/ (docs/choices.md, "Fonts"): DejaVu Sans and its bold cut
# down to the Latin letters and every other character the UI's code writes, without hinting, as WOFF2, renamed
# "Studio Sans" as the fonts' licence asks of a changed copy, with the list of characters they hold
# (studio-sans.json, which a UI test reads) and the licence beside them. Run it again after the UI's code starts
# writing a character the list does not hold; the test says which. Needs the network for fontTools (PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

ensure_packages fonts-dejavu-core python3-venv
venv=target/ui-font-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import fontTools, brotli' 2>/dev/null || "$venv/bin/pip" install --quiet fonttools brotli

"$venv/bin/python" - <<'EOF'
import json, pathlib, re
from fontTools import subset
from fontTools.ttLib import TTFont

SOURCE = pathlib.Path("/usr/share/fonts/truetype/dejavu")
OUT = pathlib.Path("ui/src/assets/fonts")
NAME = "Studio Sans"
# Latin letters and punctuation for what a designer types (titles, labels, documents in Western languages),
# the general punctuation and the euro; beyond them only what the UI's code writes.
LATIN = [(0x20, 0x7E), (0xA0, 0x17F), (0x2010, 0x2027), (0x2030, 0x203A), (0x20AC, 0x20AC)]

written = set()
for path in pathlib.Path("ui/src").rglob("*"):
    if path.suffix in {".svelte", ".ts", ".css"} and not re.search(r"\.test\.ts$|/test/", str(path)):
        written.update(ord(c) for c in path.read_text(encoding="utf-8") if ord(c) > 0x7E)

wanted = {c for lo, hi in LATIN for c in range(lo, hi + 1)} | written
regular = TTFont(SOURCE / "DejaVuSans.ttf")
held = set(regular.getBestCmap())
missing = sorted(written - held)
if missing:
    raise SystemExit("DejaVu Sans has no glyph for " + ", ".join(f"U+{c:04X}" for c in missing))
codepoints = sorted(wanted & held)

def ranges(points):
    out = []
    for c in points:
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out

OUT.mkdir(parents=True, exist_ok=True)
for source, cut, style in [("DejaVuSans.ttf", "regular", "Book"), ("DejaVuSans-Bold.ttf", "bold", "Bold")]:
    options = subset.Options()
    options.hinting = False
    options.flavor = "woff2"
    options.drop_tables += ["FFTM"]
    font = TTFont(SOURCE / source, recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=codepoints)
    subsetter.subset(font)
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 16):
            names.setName(NAME, record.nameID, record.platformID, record.platEncID, record.langID)
        elif record.nameID in (3, 4):
            names.setName(f"{NAME} {style}", record.nameID, record.platformID, record.platEncID, record.langID)
        elif record.nameID == 6:
            names.setName(f"StudioSans-{style}", record.nameID, record.platformID, record.platEncID, record.langID)
        elif record.nameID in (11, 14):
            # Addresses of the original's vendor and licence: the licence is beside the fonts.
            names.removeNames(nameID=record.nameID)
    font.flavor = "woff2"
    font.save(OUT / f"studio-sans-{cut}.woff2")

(OUT / "studio-sans.json").write_text(json.dumps({"codepoints": ranges(codepoints)}) + "\n")
licence = pathlib.Path("/usr/share/doc/fonts-dejavu-core/copyright").read_text()
notice = licence.split("\nFiles: *\n")[1].split("\nFiles: debian/*")[0]
(OUT / "LICENSE").write_text(
    f"{NAME} is DejaVu Sans and DejaVu Sans Bold, cut down to fewer characters, without hinting, and renamed\n"
    "(scripts/ui-font.sh). Their copyright and licence:\n\n" + notice.strip() + "\n"
)
print(f"{len(codepoints)} characters in {OUT}")
EOF
