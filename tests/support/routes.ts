/**
 * One concrete address for every row of spec 01 §2 and spec 02 §2 and for the screens added since (event analytics; the demo organisation's ids), for
 * the tests that walk every screen: console errors and Russian text (workspace.e2e), layout at the
 * three screen sizes (layout.e2e).
 */
export const everyRoute = [
  '/',
  '/news',
  '/services',
  '/products',
  '/hr',
  '/ai',
  '/evan',
  '/report-example',
  '/calculator',
  '/login',
  '/registration',
  '/demo/abc123',
  '/projects',
  '/projects/4',
  '/project',
  '/summary',
  '/markup/4',
  '/video/1',
  '/video/1/42',
  '/multi-video',
  '/edit/4/2026-11-16T05:00:00Z/2026-11-16T14:00:00Z',
  '/statement/4/1/2026-11-16T05:00:00Z/2026-11-16T14:00:00Z',
  '/statement/4/1/2026-11-16T05:00:00Z/2026-11-16T14:00:00Z/pdf',
  '/report/4/2026-11-16T05:00:00Z/2026-11-16T14:00:00Z',
  '/pdf/report/4/2026-11-16T05:00:00Z/2026-11-16T14:00:00Z',
  '/interactive/4/2026-11-16T05:00:00Z/2026-11-16T14:00:00Z',
  '/models/1',
  '/models-stand-locations/1',
  '/models-stands/4',
  '/event-analytics/4',
  '/ciblock/map',
];
