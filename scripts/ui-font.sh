#!/usr/bin/env bash
# Makes the desktop page's own font, ui/src/assets/fonts/ (docs/choices.md, "Fonts"): DejaVu Sans and its bold cut
# down to the Latin letters and every other character the UI's code writes, without hinting, as WOFF2, renamed
# "Studio Sans" as the fonts' licence asks of a changed copy, with the list of characters they hold
# (studio-sans.json, which ui/src/font.test.ts reads) and their licence beside them. Run it again after the UI's
# code starts writing a character the list does not hold; that test says which. Needs the network for fontTools
# (PyPI); the same fontTools and the same DejaVu fonts make the same files.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

ensure_packages fonts-dejavu-core python3-venv
venv=target/ui-font-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet fonttools==4.69.1 brotli==1.2.1

"$venv/bin/python" - <<'EOF'
import json, pathlib, re
from fontTools import subset
from fontTools.ttLib import TTFont

SOURCE = pathlib.Path("/usr/share/fonts/truetype/dejavu")
OUT = pathlib.Path("ui/src/assets/fonts")
NAME = "Studio Sans"
CUTS = [("DejaVuSans.ttf", "regular", "Book"), ("DejaVuSans-Bold.ttf", "bold", "Bold")]
# What a designer types in Western languages (titles, labels, documents): the Latin letters, Romanian's commas
# below, the general punctuation (the spaces a locale groups digits with among them), the euro and the trade mark;
# beyond them only what the UI's code writes.
LATIN = [(0x20, 0x7E), (0xA0, 0x17F), (0x218, 0x21B), (0x2000, 0x206F), (0x20AC, 0x20AC), (0x2122, 0x2122)]
# The UI's code, as ui/src/font.test.ts reads it: components, scripts and styles, tests left out.
CODE = re.compile(r"\.(svelte|ts|css)$")
TESTS = re.compile(r"\.test\.ts$|(^|/)test/")

written = set()
for path in pathlib.Path("ui/src").rglob("*"):
    relative = path.relative_to("ui/src").as_posix()
    if CODE.search(relative) and not TESTS.search(relative):
        written.update(ord(c) for c in path.read_text(encoding="utf-8") if ord(c) > 0x7E)

fonts = [TTFont(SOURCE / source, recalcTimestamp=False) for source, _, _ in CUTS]
held = set.intersection(*(set(f.getBestCmap()) for f in fonts))
missing = sorted(written - held)
if missing:
    raise SystemExit("DejaVu Sans has no glyph for " + ", ".join(f"U+{c:04X}" for c in missing))
codepoints = sorted(({c for lo, hi in LATIN for c in range(lo, hi + 1)} | written) & held)

def ranges(points):
    out = []
    for c in points:
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out

OUT.mkdir(parents=True, exist_ok=True)
for font, (_, cut, style) in zip(fonts, CUTS):
    options = subset.Options()
    options.hinting = False
    options.drop_tables += ["FFTM"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=codepoints)
    subsetter.subset(font)
    if sorted(font.getBestCmap()) != codepoints:
        raise SystemExit(f"the {cut} cut does not hold the characters of the list")
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 16):
            names.setName(NAME, record.nameID, record.platformID, record.platEncID, record.langID)
        elif record.nameID in (3, 4):
            names.setName(f"{NAME} {style}", record.nameID, record.platformID, record.platEncID, record.langID)
        elif record.nameID == 6:
            names.setName(f"StudioSans-{style}", record.nameID, record.platformID, record.platEncID, record.langID)
        elif record.nameID in (11, 14):
            # Addresses of the original's vendor and licence: the licence is beside the fonts and inside them.
            names.removeNames(nameID=record.nameID)
    font.flavor = "woff2"
    font.save(OUT / f"studio-sans-{cut}.woff2")

(OUT / "studio-sans.json").write_text(json.dumps({"codepoints": ranges(codepoints)}) + "\n")
# The licence as the fonts themselves carry it (their copyright and licence entries), Arev's terms with Bitstream's.
source = fonts[0]["name"]
(OUT / "LICENSE").write_text(
    f"{NAME} is DejaVu Sans and DejaVu Sans Bold ({source.getDebugName(5)}), cut down to fewer characters, without\n"
    "hinting, and renamed (scripts/ui-font.sh). Their copyright and licence, as the fonts carry them:\n\n"
    + source.getDebugName(0).strip() + "\n\n" + source.getDebugName(13).strip() + "\n"
)
print(f"{len(codepoints)} characters in {OUT}")
EOF
