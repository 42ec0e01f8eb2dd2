import { GSHHG_DIR, GSHHG_PACKAGE, waterSource } from '@norma/workers/map';

/**
 * Why rivers and lakes cannot be checked here, or null: the basemap takes them from the GSHHG files
 * of Debian's gmt-gshhg-high (docs/map.md «Подложка»), which `.ci/run` installs.
 */
export const WATER_MISSING = waterSource()
  ? null
  : `нет данных GSHHG в ${GSHHG_DIR}: установите пакет ${GSHHG_PACKAGE} (apt-get install ${GSHHG_PACKAGE}; .ci/run ставит его сам)`;
