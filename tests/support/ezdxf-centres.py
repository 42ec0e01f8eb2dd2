"""Where a DXF puts its block labels and circles, read by ezdxf (Debian python3-ezdxf), with every
polygon centroid computed exactly (rational arithmetic over the file's own coordinates): the CAD
test's independent reference. Prints JSON.

  ezdxf-centres.py FILE.dxf        labels of blocks, circles, $EXTMIN/$EXTMAX, the *ACTIVE viewport
  ezdxf-centres.py --rings R.json  exact centroids of the rings in R.json ([[[x, y], …], …])
"""
import json
import sys
from fractions import Fraction


def exact_centroid(points):
    """Area-weighted centroid of a ring (closed or not), exactly, then as floats."""
    ring = [(Fraction(x), Fraction(y)) for x, y in points]
    if ring[0] != ring[-1]:
        ring.append(ring[0])
    area = cx = cy = Fraction(0)
    for (x0, y0), (x1, y1) in zip(ring, ring[1:]):
        f = x0 * y1 - x1 * y0
        area += f
        cx += (x0 + x1) * f
        cy += (y0 + y1) * f
    return [float(cx / (3 * area)), float(cy / (3 * area))]


if sys.argv[1] == "--rings":
    with open(sys.argv[2], encoding="utf-8") as f:
        print(json.dumps([exact_centroid(r) for r in json.load(f)]))
    sys.exit(0)

import ezdxf  # noqa: E402 (not needed for --rings)

doc = ezdxf.readfile(sys.argv[1])
msp = doc.modelspace()
blocks = [exact_centroid([p[:2] for p in e.get_points("xy")]) for e in msp.query("LWPOLYLINE") if e.dxf.layer.startswith("Кварталы_") and e.closed]
labels = []
for e in msp.query("TEXT"):
    if e.dxf.layer == "Подписи" and e.dxf.text.startswith("Квартал "):
        # A centred label's point is its alignment point (11/21); the insertion point follows it.
        at = e.dxf.align_point if e.dxf.halign != 0 or e.dxf.valign != 0 else e.dxf.insert
        labels.append({"text": e.dxf.text, "at": [at[0], at[1]]})
circles = [{"layer": e.dxf.layer, "center": [e.dxf.center[0], e.dxf.center[1]], "radius": e.dxf.radius} for e in msp.query("CIRCLE")]
active = [v for v in doc.viewports if v.dxf.name.upper() == "*ACTIVE"]
vport = None
if active:
    v = active[0]
    vport = {"center": list(v.dxf.center)[:2], "target": list(v.dxf.target)[:2], "height": v.dxf.height, "ratio": v.dxf.aspect_ratio}
print(
    json.dumps(
        {
            "blocks": blocks,
            "labels": labels,
            "circles": circles,
            "extmin": list(doc.header.get("$EXTMIN", (0, 0, 0)))[:2],
            "extmax": list(doc.header.get("$EXTMAX", (0, 0, 0)))[:2],
            "vport": vport,
        },
        ensure_ascii=False,
    )
)
