export * from './catalog';
export { buildBasemap, basemapAttribution, BASEMAP_MAX_ZOOM, INITIAL_VIEW } from './basemap-build';
export { placeNamesCatalog, PLACE_NAMES_CATALOG } from './places';
export { readWater, waterSource, GSHHG_DIR, GSHHG_PACKAGE, type Water } from './water';
export { writePmtiles, zxyToTileId } from './pmtiles';
export {
  ALGO_TAGS,
  ALGO_NAMES,
  AlgoInputError,
  runAlgorithm,
  MAX_DETOUR_GROWTH,
  LOCAL_DETOUR,
  type AlgoTag,
  type AlgoInput,
  type AlgoOutput,
} from './algorithms';
export { metrics, readNetwork, roadGraph, type GeoCollection, type GeoFeature, type Metrics } from './network';
export { CRS_KINDS, crsOfKind, crsProjection, defaultCrs, localCrs, type CrsKind, type CrsProjection, type ProjectCrs } from './crs';
export { writeDxf, planCad, layerOf, LABEL_LAYER, LABEL_ACI, type DxfResult, type CadPlan, type CadEntity } from './dxf';
export { writeDwg, DwgLimitError, type DwgResult, type DwgTextEncoding } from './dwg/write';
