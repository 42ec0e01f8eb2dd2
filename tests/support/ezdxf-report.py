"""Reads a DXF with ezdxf (Debian python3-ezdxf) and prints what the CAD test compares, as JSON."""
import json
import sys

import ezdxf

doc = ezdxf.readfile(sys.argv[1])
auditor = doc.audit()
per_layer = {}
kinds = {}
texts = []
for e in doc.modelspace():
    per_layer[e.dxf.layer] = per_layer.get(e.dxf.layer, 0) + 1
    kinds[e.dxftype()] = kinds.get(e.dxftype(), 0) + 1
    if e.dxftype() == "TEXT":
        texts.append(e.dxf.text)
crs = None
if "NORMA_CRS" in doc.rootdict:
    crs = [[code, value] for code, value in doc.rootdict["NORMA_CRS"].tags]
outlines = {}
for e in doc.modelspace().query("LWPOLYLINE"):
    outlines.setdefault(e.dxf.layer, [list(p)[:2] for p in e.get_points("xy")])
print(
    json.dumps(
        {
            "version": doc.dxfversion,
            "encoding": doc.encoding,
            "codepage": doc.header.get("$DWGCODEPAGE"),
            "errors": len(auditor.errors),
            "fixes": len(auditor.fixes),
            "per_layer": per_layer,
            "kinds": kinds,
            "layers": {layer.dxf.name: layer.dxf.color for layer in doc.layers},
            "texts": texts,
            "crs": crs,
            "first_outline": outlines,
        },
        ensure_ascii=False,
    )
)
