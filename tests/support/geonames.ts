import type { Page } from 'playwright-core';
import { PLACE_NAMES_CATALOG, placeNamesCatalog } from '@norma/workers/map';

/**
 * Why town names cannot be checked here, or null: the basemap takes their Russian names from
 * Debian's libgeonames-common (docs/map.md «Подложка»), which `.ci/run` installs.
 */
export const PLACES_MISSING = placeNamesCatalog()
  ? null
  : `нет ${PLACE_NAMES_CATALOG}: установите пакет libgeonames-common (apt-get install libgeonames-common; .ci/run ставит его сам)`;

/**
 * Whether the page has loaded the Cyrillic file of Montserrat that draws weight 400 (a variable face:
 * its weight is a range, pwa/src/fonts.css) — the face maplibre draws the town names with (the style
 * has no glyphs URL). `document.fonts.check` would not do: it is true for a family that has no face at all.
 */
export function cyrillicMontserratLoaded(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    [...document.fonts].some((face) => {
      const [lightest, boldest = lightest] = face.weight.split(' ').map(Number);
      return (
        face.family.replace(/['"]/g, '') === 'Montserrat' &&
        lightest! <= 400 &&
        400 <= boldest! &&
        /U\+400-45F/i.test(face.unicodeRange) &&
        face.status === 'loaded'
      );
    }),
  );
}
