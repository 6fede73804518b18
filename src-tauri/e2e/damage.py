"""Damages SQLite file argv[1] as a fault would, for the desktop end-to-end tests (support.mjs, `damage`).

`header` overwrites its first 100 bytes; `table` overwrites the pages holding table argv[3] (found with SQLite's
dbstat) with garbage.
"""
import sqlite3, sys
path, how, name = sys.argv[1], sys.argv[2], sys.argv[3]
if how == 'header':
    offsets, size = [0], 100
else:
    c = sqlite3.connect(path)
    size = c.execute('PRAGMA page_size').fetchone()[0]
    pages = [r[0] for r in c.execute('SELECT pageno FROM dbstat WHERE name = ?', (name,))]
    c.close()
    if not pages:
        sys.exit('no pages of ' + name + ' in ' + path)
    offsets = [(p - 1) * size for p in pages]
with open(path, 'r+b') as f:
    for o in offsets:
        f.seek(o)
        f.write(bytes((i * 37 + 11) % 256 for i in range(size)))
