"""Splits a DXF into one file per TEXT entity (every other entity kept): OUT_DIR/<n>.dxf, and prints
the texts in that order as JSON. The CAD label test renders each with LibreCAD to find placeholder
glyphs; the file itself is what LibreCAD saved, so its text styles and fonts are LibreCAD's reading.
Usage: ezdxf-split-texts.py FILE OUT_DIR"""
import json
import os
import sys

import ezdxf

source, out = sys.argv[1], sys.argv[2]
count = len(ezdxf.readfile(source).modelspace().query("TEXT"))
texts = []
for n in range(count):
    doc = ezdxf.readfile(source)
    msp = doc.modelspace()
    all_texts = list(msp.query("TEXT"))
    texts.append(all_texts[n].dxf.text)
    for i, e in enumerate(all_texts):
        if i != n:
            msp.delete_entity(e)
    doc.saveas(os.path.join(out, f"{n}.dxf"))
print(json.dumps(texts, ensure_ascii=False))
