import { BitWriter, modularChar, modularShort } from './bit-writer';
import { encodeDwgText, type DwgTextEncoding } from './cp1251';
import { crc16 } from './crc';
import { activeView, LABEL_FONT, LABEL_STYLE, planExtents, type ActiveView, type CadEntity } from '../dxf';

/**
 * An AutoCAD 2000 (AC1015) DWG file written from the Open Design Specification for .dwg files: file
 * header with section locators, header variables, classes (the ones every AutoCAD 2000 file carries),
 * objects and the object map.
 * The objects are the minimum a drawing needs — the nine table controls, layer «0», linetypes
 * ByBlock/ByLayer/Continuous, text style Standard, *Model_Space and *Paper_Space with their
 * BLOCK/ENDBLK, the named object dictionary — plus our layers and entities (docs/map.md «DWG»).
 */

export interface DwgLayer {
  name: string;
  /** AutoCAD colour index 1–255. */
  aci: number;
}
/** The entities the writer knows (the same shapes the DXF export draws). */
export type DwgEntity = CadEntity;

/** LibreDWG and AutoCAD refuse a lightweight polyline with more vertices. */
export const MAX_POLYLINE_VERTICES = 20_000;

/** The drawing does not fit the format's limits (the message is for the user). */
export class DwgLimitError extends Error {}

const SENTINEL = {
  headerEnd: [0x95, 0xa0, 0x4e, 0x28, 0x99, 0x82, 0x1a, 0xe5, 0x5e, 0x41, 0xe0, 0x5f, 0x9d, 0x3a, 0x4d, 0x00],
  varsBegin: [0xcf, 0x7b, 0x1f, 0x23, 0xfd, 0xde, 0x38, 0xa9, 0x5f, 0x7c, 0x68, 0xb8, 0x4e, 0x6d, 0x33, 0x5f],
  varsEnd: [0x30, 0x84, 0xe0, 0xdc, 0x02, 0x21, 0xc7, 0x56, 0xa0, 0x83, 0x97, 0x47, 0xb1, 0x92, 0xcc, 0xa0],
  classesBegin: [0x8d, 0xa1, 0xc4, 0xb8, 0xc4, 0xa9, 0xf8, 0xc5, 0xc0, 0xdc, 0xf4, 0x5f, 0xe7, 0xcf, 0xb6, 0x8a],
  classesEnd: [0x72, 0x5e, 0x3b, 0x47, 0x3b, 0x56, 0x07, 0x3a, 0x3f, 0x23, 0x0b, 0xa0, 0x18, 0x30, 0x49, 0x75],
};

/** Object type numbers fixed by the format. */
const T = {
  TEXT: 1,
  BLOCK: 4,
  ENDBLK: 5,
  CIRCLE: 18,
  LINE: 19,
  DICTIONARY: 42,
  BLOCK_CONTROL: 48,
  BLOCK_HEADER: 49,
  LAYER_CONTROL: 50,
  LAYER: 51,
  STYLE_CONTROL: 52,
  STYLE: 53,
  LTYPE_CONTROL: 56,
  LTYPE: 57,
  VIEW_CONTROL: 60,
  UCS_CONTROL: 62,
  VPORT_CONTROL: 64,
  VPORT: 65,
  APPID_CONTROL: 66,
  DIMSTYLE_CONTROL: 68,
  VX_CONTROL: 70,
  LWPOLYLINE: 77,
};

/** Handle reference codes. */
const SOFT_OWNER = 2;
const HARD_OWNER = 3;
const SOFT_PTR = 4;
const HARD_PTR = 5;

/** Handles of the fixed objects (as AutoCAD numbers them where it has a habit). */
const H = {
  blockControl: 0x1,
  layerControl: 0x2,
  styleControl: 0x3,
  ltypeControl: 0x5,
  viewControl: 0x6,
  ucsControl: 0x7,
  vportControl: 0x8,
  appidControl: 0x9,
  dimstyleControl: 0xa,
  vxControl: 0xb,
  namedDict: 0xc,
  groupDict: 0xd,
  mlinestyleDict: 0xe,
  layer0: 0xf,
  standard: 0x10,
  /** The labels' text style (LABEL_STYLE). */
  labels: 0x11,
  /** The viewport «*ACTIVE»: the view the drawing opens on. */
  activeVport: 0x12,
  byBlock: 0x14,
  byLayer: 0x15,
  continuous: 0x16,
  modelSpace: 0x17,
  modelBlock: 0x18,
  modelEnd: 0x19,
  paperSpace: 0x1a,
  paperBlock: 0x1b,
  paperEnd: 0x1c,
  firstFree: 0x20,
};

/** Lineweight indices: ByLayer for entities, Default for layers. */
const LW_BYLAYER = 29;
const LW_DEFAULT = 31;
const ACI_BYLAYER = 256;

/** The file's own strings (ASCII: the same in either text encoding). */
const text = (s: string) => encodeDwgText(s);

interface EntityCommon {
  /** 0 — owner handle given, 2 — model space. */
  entmode: 0 | 2;
  owner?: number;
  layer: number;
  prev?: number;
  next?: number;
}

/** One object: MS size, the bit stream (type, R2000 size in bits, handle, EED, data, handle refs), CRC. */
function object(type: number, handle: number, data: (w: BitWriter) => void, refs: (w: BitWriter) => void, entity?: EntityCommon, owner = 0): Uint8Array {
  const w = new BitWriter();
  w.BS(type);
  const sizeAt = w.bitLength;
  w.RL(0);
  w.H(0, handle);
  w.BS(0); // no extended data
  if (entity) {
    w.B(0); // no graphic image
    w.BB(entity.entmode);
    w.BL(0); // reactors
    w.B(0); // links to the previous and next entity are given
    w.CMC(ACI_BYLAYER);
    w.BD(1); // linetype scale
    w.BB(0); // linetype ByLayer
    w.BB(0); // plot style ByLayer
    w.BS(0); // visible
    w.RC(LW_BYLAYER);
  } else w.BL(0); // reactors
  data(w);
  w.patchRL(sizeAt, w.bitLength);
  if (entity) {
    if (entity.entmode === 0) w.H(SOFT_PTR, entity.owner ?? 0);
    w.H(HARD_OWNER, 0); // no extension dictionary
    w.H(SOFT_PTR, entity.prev ?? 0);
    w.H(SOFT_PTR, entity.next ?? 0);
    w.H(HARD_PTR, entity.layer);
  } else {
    w.H(SOFT_PTR, owner);
    w.H(HARD_OWNER, 0); // no extension dictionary
  }
  refs(w);
  w.align();
  const body = w.bytes();
  const out = new Uint8Array([...modularShort(body.length), ...body, 0, 0]);
  const crc = crc16(out.subarray(0, out.length - 2));
  out[out.length - 2] = crc & 0xff;
  out[out.length - 1] = crc >> 8;
  return out;
}

/** Name, «referenced» bit, xref index and xref-dependent bit of every table entry; its xref block handle goes with the refs. */
const tableEntry = (w: BitWriter, name: string, encoding: DwgTextEncoding = 'unicode') => w.T(encodeDwgText(name, encoding)).B(0).BS(0).B(0);
const noXref = (w: BitWriter) => w.H(HARD_PTR, 0);

function control(type: number, handle: number, entries: number[], more: (w: BitWriter) => void = () => {}, extra: (w: BitWriter) => void = () => {}) {
  return object(
    type,
    handle,
    (w) => {
      w.BL(entries.length); // BS and BL agree below 256; the counts here are small
      extra(w);
    },
    (w) => {
      for (const e of entries) w.H(SOFT_OWNER, e);
      more(w);
    },
  );
}

function dictionary(handle: number, owner: number, items: Array<[string, number]>) {
  return object(
    T.DICTIONARY,
    handle,
    (w) => {
      w.BL(items.length).BS(1).RC(0); // cloning: keep existing; not a hard owner
      for (const [name] of items) w.T(text(name));
    },
    (w) => {
      for (const [, h] of items) w.H(SOFT_OWNER, h);
    },
    undefined,
    owner,
  );
}

function ltype(handle: number, name: string, description: string) {
  return object(
    T.LTYPE,
    handle,
    (w) => {
      tableEntry(w, name);
      w.T(text(description)).BD(0).RC(65).RC(0); // pattern length 0, alignment «A», no dashes
      w.raw(new Uint8Array(256)); // the text area of complex linetypes (R2000 always has it)
    },
    noXref,
    undefined,
    H.ltypeControl,
  );
}

function blockHeader(handle: number, name: string, block: number, end: number, first: number, last: number) {
  return object(
    T.BLOCK_HEADER,
    handle,
    (w) => {
      tableEntry(w, name);
      w.B(0).B(0).B(0).B(0).B(0); // not anonymous, no attributes, not an xref, not overlaid, not loaded
      w.BD3(0, 0, 0); // base point
      w.T(text('')); // xref path
      w.RC(0); // no inserts
      w.T(text('')); // description
      w.BL(0); // no preview
    },
    (w) => {
      noXref(w);
      w.H(HARD_OWNER, block).H(SOFT_PTR, first).H(SOFT_PTR, last).H(HARD_OWNER, end).H(HARD_PTR, 0); // layout: none
    },
    undefined,
    H.blockControl,
  );
}

const blockEntity = (handle: number, owner: number, name: string) =>
  object(
    T.BLOCK,
    handle,
    (w) => w.T(text(name)),
    () => {},
    { entmode: 0, owner, layer: H.layer0 },
  );
const endblk = (handle: number, owner: number) =>
  object(
    T.ENDBLK,
    handle,
    () => {},
    () => {},
    { entmode: 0, owner, layer: H.layer0 },
  );

function entityData(e: DwgEntity, encoding: DwgTextEncoding): [number, (w: BitWriter) => void, (w: BitWriter) => void] {
  const none = () => {};
  switch (e.kind) {
    case 'line':
      return [
        T.LINE,
        (w) => {
          w.B(1); // z is zero
          w.RD(e.from[0]).DD(e.to[0], e.from[0]);
          w.RD(e.from[1]).DD(e.to[1], e.from[1]);
          w.BT().BE();
        },
        none,
      ];
    case 'circle':
      return [T.CIRCLE, (w) => w.BD3(e.center[0], e.center[1], 0).BD(e.radius).BT().BE(), none];
    case 'polyline':
      return [
        T.LWPOLYLINE,
        (w) => {
          w.BS(e.closed ? 512 : 0);
          w.BL(e.points.length);
          w.RD2(e.points[0][0], e.points[0][1]);
          for (let i = 1; i < e.points.length; i++) w.DD(e.points[i][0], e.points[i - 1][0]).DD(e.points[i][1], e.points[i - 1][1]);
        },
        none,
      ];
    case 'text':
      return [
        T.TEXT,
        (w) => {
          // Data flags: elevation 0, oblique 0, rotation 0, width 1, generation 0 are left out;
          // a centred text keeps its alignment point (equal to the insertion point) and alignments.
          const flags = 0x01 | 0x04 | 0x08 | 0x10 | 0x20 | (e.centered ? 0 : 0x02 | 0x40 | 0x80);
          w.RC(flags);
          w.RD2(e.at[0], e.at[1]);
          if (e.centered) w.DD(e.at[0], e.at[0]).DD(e.at[1], e.at[1]);
          w.BE().BT();
          w.RD(e.height);
          w.T(encodeDwgText(e.text, encoding));
          if (e.centered) w.BS(1).BS(2); // centre, middle
        },
        (w) => w.H(HARD_PTR, H.labels),
      ];
  }
}

/** Julian date as the format keeps it: whole days and milliseconds. */
function julian(date: Date): [number, number] {
  const jd = date.getTime() / 86_400_000 + 2_440_587.5;
  const days = Math.floor(jd);
  return [days, Math.round((jd - days) * 86_400_000)];
}

function headerVariables(o: { handseed: number; layerControlEntries: number; extents: [number, number, number, number]; created: Date; guid: string }) {
  const w = new BitWriter();
  const [minX, minY, maxX, maxY] = o.extents;
  w.BD(412148564080.0).BD(1).BD(1).BD(1);
  w.T(text('m')).T(text('')).T(text('')).T(text(''));
  w.BL(24).BL(0);
  w.H(HARD_PTR, 0); // current viewport entity header
  // DIMASO DIMSHO PLINEGEN ORTHOMODE REGENMODE FILLMODE QTEXTMODE PSLTSCALE LIMCHECK USRTIMER SKPOLY
  // ANGDIR SPLFRAME MIRRTEXT WORLDVIEW TILEMODE PLIMCHECK VISRETAIN DISPSILH PELLIPSE
  for (const b of [1, 1, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0]) w.B(b);
  w.BS(1); // PROXYGRAPHICS
  w.BS(3020); // TREEDEPTH
  w.BS(2).BS(4).BS(0).BS(0); // LUNITS decimal, LUPREC 4, AUNITS degrees, AUPREC 0
  w.BS(1).BS(0); // ATTMODE, PDMODE
  for (let i = 0; i < 5; i++) w.BS(0); // USERI1–5
  w.BS(8).BS(6).BS(6).BS(6).BS(6).BS(6).BS(6); // SPLINESEGS SURFU SURFV SURFTYPE SURFTAB1 SURFTAB2 SPLINETYPE
  w.BS(3).BS(70).BS(0).BS(64).BS(4).BS(0).BS(50); // SHADEDGE SHADEDIF UNITMODE MAXACTVP ISOLINES CMLJUST TEXTQLTY
  // LTSCALE TEXTSIZE TRACEWID SKETCHINC FILLETRAD THICKNESS ANGBASE PDSIZE PLINEWID USERR1–5 CHAMFERA–D FACETRES CMLSCALE CELTSCALE
  for (const d of [1, 2.5, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5, 1, 1]) w.BD(d);
  w.T(text('acad')); // MENU
  const [days, ms] = julian(o.created);
  w.BL(days).BL(ms).BL(days).BL(ms); // TDCREATE, TDUPDATE
  w.BL(0).BL(0).BL(0).BL(0); // TDINDWG, TDUSRTIMER
  w.CMC(ACI_BYLAYER); // CECOLOR
  w.H(0, o.handseed);
  w.H(HARD_PTR, H.layer0).H(HARD_PTR, H.standard).H(HARD_PTR, H.byLayer); // CLAYER TEXTSTYLE CELTYPE
  w.H(HARD_PTR, 0).H(HARD_PTR, 0); // DIMSTYLE, CMLSTYLE: none
  w.BD(0); // PSVPSCALE
  const space = (ext: [number, number, number, number], lim: [number, number, number, number]) => {
    w.BD3(0, 0, 0); // INSBASE
    w.BD3(ext[0], ext[1], 0).BD3(ext[2], ext[3], 0); // EXTMIN EXTMAX
    w.RD2(lim[0], lim[1]).RD2(lim[2], lim[3]); // LIMMIN LIMMAX
    w.BD(0); // ELEVATION
    w.BD3(0, 0, 0).BD3(1, 0, 0).BD3(0, 1, 0); // UCSORG UCSXDIR UCSYDIR
    w.H(HARD_PTR, 0).H(HARD_PTR, 0).BS(0).H(HARD_PTR, 0); // UCSNAME UCSORTHOREF UCSORTHOVIEW UCSBASE
    for (let i = 0; i < 6; i++) w.BD3(0, 0, 0); // UCSORGTOP … UCSORGBACK
  };
  space([0, 0, 0, 0], [0, 0, 420, 297]); // paper space
  space([minX, minY, maxX, maxY], [minX, minY, maxX, maxY]); // model space
  w.T(text('')).T(text('')); // DIMPOST DIMAPOST
  for (const d of [1, 2.5, 0.625, 3.75, 1.25, 0, 0, 0, 0]) w.BD(d); // DIMSCALE DIMASZ DIMEXO DIMDLI DIMEXE DIMRND DIMDLE DIMTP DIMTM
  for (const b of [0, 0, 0, 0, 0, 0]) w.B(b); // DIMTOL DIMLIM DIMTIH DIMTOH DIMSE1 DIMSE2
  w.BS(1).BS(8).BS(0); // DIMTAD DIMZIN DIMAZIN
  for (const d of [2.5, 2.5, 0, 25.4, 1, 0, 1, 0.625]) w.BD(d); // DIMTXT DIMCEN DIMTSZ DIMALTF DIMLFAC DIMTVP DIMTFAC DIMGAP
  w.BD(0).B(0).BS(2).B(1).B(0).B(0).B(0); // DIMALTRND DIMALT DIMALTD DIMTOFL DIMSAH DIMTIX DIMSOXD
  w.CMC(0).CMC(0).CMC(0); // DIMCLRD DIMCLRE DIMCLRT: ByBlock
  // DIMADEC DIMDEC DIMTDEC DIMALTU DIMALTTD DIMAUNIT DIMFRAC DIMLUNIT DIMDSEP DIMTMOVE DIMJUST
  for (const s of [0, 2, 2, 2, 2, 0, 0, 2, 44, 0, 0]) w.BS(s);
  w.B(0).B(0).BS(0).BS(8).BS(0).BS(0).B(0).BS(3); // DIMSD1 DIMSD2 DIMTOLJ DIMTZIN DIMALTZ DIMALTTZ DIMUPT DIMATFIT
  for (let i = 0; i < 5; i++) w.H(HARD_PTR, 0); // DIMTXSTY DIMLDRBLK DIMBLK DIMBLK1 DIMBLK2
  w.BS(-2).BS(-2); // DIMLWD DIMLWE: ByBlock
  w.H(HARD_OWNER, H.blockControl).H(HARD_OWNER, H.layerControl).H(HARD_OWNER, H.styleControl).H(HARD_OWNER, H.ltypeControl);
  w.H(HARD_OWNER, H.viewControl).H(HARD_OWNER, H.ucsControl).H(HARD_OWNER, H.vportControl).H(HARD_PTR, H.appidControl);
  w.H(HARD_OWNER, H.dimstyleControl).H(HARD_OWNER, H.vxControl);
  w.H(HARD_PTR, H.groupDict).H(HARD_PTR, H.mlinestyleDict).H(HARD_PTR, H.namedDict);
  w.BS(1).BS(70); // TSTACKALIGN TSTACKSIZE
  w.T(text('')).T(text('')); // HYPERLINKBASE STYLESHEET
  w.H(HARD_PTR, 0).H(HARD_PTR, 0).H(HARD_PTR, 0); // layouts, plot settings, plot style names: none
  w.BL(LW_BYLAYER); // FLAGS: CELWEIGHT ByLayer, lineweights not shown
  w.BS(6); // INSUNITS: metres
  w.BS(0); // CEPSNTYPE ByLayer
  w.T(text(o.guid)).T(text(o.guid)); // FINGERPRINTGUID VERSIONGUID
  w.H(HARD_PTR, H.paperSpace).H(HARD_PTR, H.modelSpace);
  w.H(HARD_PTR, H.byLayer).H(HARD_PTR, H.byBlock).H(HARD_PTR, H.continuous);
  w.BS(0).BS(0).BS(0).BS(0);
  return w.align().bytes();
}

/** Sentinel, RL size, data, CRC over size and data, sentinel. */
function section(begin: number[], data: Uint8Array, end: number[]): Uint8Array {
  const sized = new Uint8Array(4 + data.length);
  new DataView(sized.buffer).setUint32(0, data.length, true);
  sized.set(data, 4);
  const crc = crc16(sized);
  return new Uint8Array([...begin, ...sized, crc & 0xff, crc >> 8, ...end]);
}

/**
 * The classes section. No object here uses a class, but AutoCAD 2000 files always list some, and
 * libdxfrw (the reader inside LibreCAD and QGIS) reads an empty section past its end: its loop runs
 * while the position is under «size − 1», an unsigned number that wraps for size 0.
 */
const CLASSES: Array<{ cpp: string; dxf: string; proxyFlags: number; entity: boolean }> = [
  { cpp: 'AcDbDictionaryWithDefault', dxf: 'ACDBDICTIONARYWDFLT', proxyFlags: 0, entity: false },
  { cpp: 'AcDbPlaceHolder', dxf: 'ACDBPLACEHOLDER', proxyFlags: 0, entity: false },
  { cpp: 'AcDbLayout', dxf: 'LAYOUT', proxyFlags: 0, entity: false },
];

function classEntries(): Uint8Array {
  const w = new BitWriter();
  CLASSES.forEach((c, i) => {
    w.BS(500 + i).BS(c.proxyFlags); // class number, proxy capability flags
    w.T(text('ObjectDBX Classes')).T(text(c.cpp)).T(text(c.dxf));
    w.B(0).BS(c.entity ? 0x1f2 : 0x1f3); // not a zombie; item class id: entity or object
  });
  return w.align().bytes();
}

/** Object map: pages of at most 2032 bytes (RS big-endian size, handle/offset deltas in modular chars, big-endian CRC), then an empty page. */
function objectMap(entries: Array<[number, number]>): Uint8Array {
  const out: number[] = [];
  const page = (body: number[]) => {
    const bytes = [(body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
    const crc = crc16(new Uint8Array(bytes));
    out.push(...bytes, crc >> 8, crc & 0xff);
  };
  let body: number[] = [];
  let [lastHandle, lastOffset] = [0, 0];
  for (const [handle, offset] of entries) {
    body.push(...modularChar(handle - lastHandle), ...modularChar(offset - lastOffset));
    [lastHandle, lastOffset] = [handle, offset];
    if (body.length >= 2020) {
      page(body);
      [body, lastHandle, lastOffset] = [[], 0, 0];
    }
  }
  if (body.length) page(body);
  page([]);
  return new Uint8Array(out);
}

export interface DwgOptions {
  /** Creation date written into the header (TDCREATE). */
  created?: Date;
  /** Drawing GUID, «{XXXXXXXX-…}». */
  guid?: string;
  /** How layer names and labels store what is not ASCII (cp1251.ts); `unicode` by default. */
  textEncoding?: DwgTextEncoding;
}

/**
 * The viewport «*ACTIVE» on the drawing's extents (activeView in dxf.ts: LibreCAD takes the centre
 * for half the upper-right corner and ignores the target; AutoCAD shows target + centre). The
 * field after the height is the view's width/height as libdxfrw (LibreCAD, QGIS) reads it.
 */
function activeVport(view: ActiveView) {
  return object(
    T.VPORT,
    H.activeVport,
    (w) => {
      tableEntry(w, '*ACTIVE');
      w.BD(view.height).BD(view.ratio);
      w.RD2(view.center[0], view.center[1]);
      w.BD3(view.target[0], view.target[1], 0).BD3(0, 0, 1); // view target, view direction (plan view)
      w.BD(0).BD(50).BD(0).BD(0); // twist, lens length, front and back clip
      w.B(0).B(0).B(0).B(0); // view mode bits
      w.RC(0); // render mode
      w.RD2(0, 0).RD2(1, 1); // the whole screen: lower-left and upper-right corners
      w.B(0).BS(1000).B(1); // UCSFOLLOW, circle zoom percent, fast zoom
      w.BB(3).B(0).RD2(10, 10); // UCS icon on, at origin; grid off, grid spacing
      w.B(0).B(0).BS(0).BD(0).RD2(0, 0).RD2(10, 10); // snap off, standard, isopair, angle, base, spacing
      w.B(0).B(0); // UCS at origin, UCS per viewport
      w.BD3(0, 0, 0).BD3(1, 0, 0).BD3(0, 1, 0).BD(0).BS(0); // UCS origin, axes, elevation, orthographic type
    },
    (w) => w.H(HARD_PTR, 0).H(HARD_PTR, 0).H(HARD_PTR, 0), // xref block, named UCS, base UCS
    undefined,
    H.vportControl,
  );
}

/**
 * The objects every file has: the table controls, the named-object dictionaries, the layers, the text
 * style, the linetypes and the model and paper space blocks (`first`/`last`: model space's entities).
 */
function tableObjects(
  allLayers: DwgLayer[],
  layerHandle: Map<string, number>,
  first: number,
  last: number,
  view: ActiveView,
  encoding: DwgTextEncoding,
): Array<[number, Uint8Array]> {
  const objects: Array<[number, Uint8Array]> = [];
  const add = (handle: number, bytes: Uint8Array) => objects.push([handle, bytes]);
  add(
    H.blockControl,
    control(T.BLOCK_CONTROL, H.blockControl, [], (w) => w.H(HARD_OWNER, H.modelSpace).H(HARD_OWNER, H.paperSpace)),
  );
  add(
    H.layerControl,
    control(
      T.LAYER_CONTROL,
      H.layerControl,
      allLayers.map((l) => layerHandle.get(l.name)!),
    ),
  );
  add(H.styleControl, control(T.STYLE_CONTROL, H.styleControl, [H.standard, H.labels]));
  add(
    H.ltypeControl,
    control(T.LTYPE_CONTROL, H.ltypeControl, [H.continuous], (w) => w.H(HARD_OWNER, H.byBlock).H(HARD_OWNER, H.byLayer)),
  );
  add(H.viewControl, control(T.VIEW_CONTROL, H.viewControl, []));
  add(H.ucsControl, control(T.UCS_CONTROL, H.ucsControl, []));
  add(H.vportControl, control(T.VPORT_CONTROL, H.vportControl, [H.activeVport]));
  add(H.appidControl, control(T.APPID_CONTROL, H.appidControl, []));
  add(
    H.dimstyleControl,
    control(
      T.DIMSTYLE_CONTROL,
      H.dimstyleControl,
      [],
      () => {},
      (w) => w.RC(0),
    ),
  );
  add(H.vxControl, control(T.VX_CONTROL, H.vxControl, []));
  add(
    H.namedDict,
    dictionary(H.namedDict, 0, [
      ['ACAD_GROUP', H.groupDict],
      ['ACAD_MLINESTYLE', H.mlinestyleDict],
    ]),
  );
  add(H.groupDict, dictionary(H.groupDict, H.namedDict, []));
  add(H.mlinestyleDict, dictionary(H.mlinestyleDict, H.namedDict, []));
  for (const l of allLayers)
    add(
      layerHandle.get(l.name)!,
      object(
        T.LAYER,
        layerHandle.get(l.name)!,
        (w) => {
          tableEntry(w, l.name, encoding);
          w.BS(16 | (LW_DEFAULT << 5)); // plotted, default lineweight; on, thawed, unlocked
          w.CMC(l.aci);
        },
        (w) => w.H(HARD_PTR, 0).H(HARD_PTR, 0).H(HARD_PTR, H.continuous), // xref block, plot style, linetype
        undefined,
        H.layerControl,
      ),
    );
  for (const [handle, name] of [
    [H.standard, 'Standard'],
    [H.labels, LABEL_STYLE],
  ] as const)
    add(
      handle,
      object(
        T.STYLE,
        handle,
        (w) => {
          tableEntry(w, name);
          w.B(0).B(0).BD(0).BD(1).BD(0).RC(0).BD(2.5).T(text(LABEL_FONT)).T(text(''));
        },
        noXref,
        undefined,
        H.styleControl,
      ),
    );
  add(H.byBlock, ltype(H.byBlock, 'ByBlock', ''));
  add(H.byLayer, ltype(H.byLayer, 'ByLayer', ''));
  add(H.continuous, ltype(H.continuous, 'Continuous', 'Solid line'));
  add(H.activeVport, activeVport(view));
  add(H.modelSpace, blockHeader(H.modelSpace, '*Model_Space', H.modelBlock, H.modelEnd, first, last));
  add(H.modelBlock, blockEntity(H.modelBlock, H.modelSpace, '*Model_Space'));
  add(H.modelEnd, endblk(H.modelEnd, H.modelSpace));
  add(H.paperSpace, blockHeader(H.paperSpace, '*Paper_Space', H.paperBlock, H.paperEnd, 0, 0));
  add(H.paperBlock, blockEntity(H.paperBlock, H.paperSpace, '*Paper_Space'));
  add(H.paperEnd, endblk(H.paperEnd, H.paperSpace));
  return objects;
}

/** Lays the file out: file header with its section locators, header variables, classes, objects (sorted by handle), object map. */
function fileOf(vars: Uint8Array, classes: Uint8Array, objects: Array<[number, Uint8Array]>): Uint8Array {
  const SECTIONS = 3;
  const fileHeaderSize = 0x19 + SECTIONS * 9 + 2 + 16;
  const varsAt = fileHeaderSize;
  const classesAt = varsAt + vars.length;
  const objectsAt = classesAt + classes.length + 4; // an RL between the classes and the objects
  const map: Array<[number, number]> = [];
  let offset = objectsAt;
  for (const [handle, bytes] of objects) {
    map.push([handle, offset]);
    offset += bytes.length;
  }
  const mapAt = offset;
  const objectMapBytes = objectMap(map);

  const head = new BitWriter();
  head.raw(text('AC1015')).raw([0, 0, 0, 0, 0]);
  head.RC(0x0f).RC(1); // maintenance release, (always 1)
  head.RL(0); // no preview image
  head.RC(0x17).RC(0); // written by an AutoCAD 2000 class application
  head.RS(29); // code page ANSI_1251
  head.RL(SECTIONS);
  head.RC(0).RL(varsAt).RL(vars.length);
  head.RC(1).RL(classesAt).RL(classes.length);
  head.RC(2).RL(mapAt).RL(objectMapBytes.length);
  const headBytes = head.bytes();
  const crc = crc16(headBytes);

  const total = mapAt + objectMapBytes.length;
  const file = new Uint8Array(total);
  file.set(headBytes, 0);
  file.set([crc & 0xff, crc >> 8], headBytes.length);
  file.set(SENTINEL.headerEnd, headBytes.length + 2);
  file.set(vars, varsAt);
  file.set(classes, classesAt);
  new DataView(file.buffer).setUint32(classesAt + classes.length, 0x0dca, true);
  for (let i = 0; i < objects.length; i++) file.set(objects[i][1], map[i][1]);
  file.set(objectMapBytes, mapAt);
  return file;
}

/** The whole file. Layer names must be unique; entities name their layer. */
export function writeR2000(layers: DwgLayer[], entities: DwgEntity[], options: DwgOptions = {}): Uint8Array {
  const layerHandle = new Map<string, number>([['0', H.layer0]]);
  let next = H.firstFree;
  for (const l of layers) if (!layerHandle.has(l.name)) layerHandle.set(l.name, next++);
  const entityHandles = entities.map(() => next++);
  const handseed = next;

  const allLayers: DwgLayer[] = [{ name: '0', aci: 7 }, ...layers.filter((l) => l.name !== '0')];
  const extents = planExtents(entities);
  const encoding = options.textEncoding ?? 'unicode';
  const objects = tableObjects(allLayers, layerHandle, entityHandles[0] ?? 0, entityHandles[entityHandles.length - 1] ?? 0, activeView(extents), encoding);
  const add = (handle: number, bytes: Uint8Array) => objects.push([handle, bytes]);
  entities.forEach((e, i) => {
    const layer = layerHandle.get(e.layer);
    if (layer === undefined) throw new Error(`DWG: unknown layer ${e.layer}`);
    if (e.kind === 'polyline' && (e.points.length < 2 || e.points.length > MAX_POLYLINE_VERTICES))
      throw new DwgLimitError(`В DWG полилиния может иметь от 2 до ${MAX_POLYLINE_VERTICES} вершин, а здесь ${e.points.length}: выгрузите DXF`);
    const [type, data, refs] = entityData(e, encoding);
    add(entityHandles[i], object(type, entityHandles[i], data, refs, { entmode: 2, layer, prev: entityHandles[i - 1] ?? 0, next: entityHandles[i + 1] ?? 0 }));
  });
  objects.sort((a, b) => a[0] - b[0]);

  const vars = section(
    SENTINEL.varsBegin,
    headerVariables({
      handseed,
      layerControlEntries: allLayers.length,
      extents,
      created: options.created ?? new Date(Date.UTC(2000, 0, 1)), // the same file for the same drawing
      guid: options.guid ?? '{00000000-0000-0000-0000-000000000000}',
    }),
    SENTINEL.varsEnd,
  );
  const classes = section(SENTINEL.classesBegin, classEntries(), SENTINEL.classesEnd);
  return fileOf(vars, classes, objects);
}
