import { lazy, Suspense, type ComponentType } from 'react';
import { parse } from 'regexparam';
import { matchRoute } from 'wouter';
import { LandingScreen } from '../screens/landing/LandingScreen';
import { LoginScreen } from '../screens/login/LoginScreen';
import { startStatementEarly } from '../screens/reports/statement-runner';
import { startMarkupReads } from '../screens/video-markup/early-reads';
import { statementWindow } from '../screens/reports/statement/window';

/** A screen takes its own route parameters as props (each screen its own names), hence `any`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Screen = ComponentType<any>;

/** A route of the app; a signed-in screen (`private`) has a title, its name in the compact header of a phone (Header.tsx). */
export type AppRoute = { path: string; screen: Screen; start?: StartWork } & ({ private: true; title: string } | { private?: false; title?: undefined });

/** Work a screen starts from its route's parameters while the app starts, before the screen's code is here (startScreenWorkAt). */
type StartWork = (params: Record<string, string | undefined>) => void;

/** The statement's computation (issue 47): its worker, core and inputs read start with the app. */
const startStatement: StartWork = (params) => {
  const window = statementWindow(params);
  if (window) startStatementEarly(window);
};

/** Shown while a screen's code is on its way (a slow phone network: a second or more). */
function ScreenLoading() {
  return (
    <section className="screen" aria-busy="true">
      <p>Загрузка…</p>
    </section>
  );
}

/** A screen that loads its code when first opened; `load()` fetches it ahead (resolves when it can render at once). */
type LazyScreen = Screen & { load: () => Promise<unknown> };

/**
 * A screen whose code is loaded when it is first opened: each screen is a chunk of its own, so
 * the landing page, login and the shared report carry no canvas, chart, PDF or XLSX code
 * (docs/performance.md, «Быстрая первая загрузка»). Once its code is here (loaded ahead by `load()`,
 * or opened before), the screen renders in the same pass: React shows a Suspense fallback for at
 * least 300 ms once it has shown one, so a screen that suspends needlessly appears that much later.
 */
function lazyScreen<M extends Record<string, unknown>>(importModule: () => Promise<M>, name: keyof M & string): LazyScreen {
  let loaded: { default: Screen } | null = null;
  const load = async () => (loaded ??= { default: (await importModule())[name] as Screen });
  // A thenable that is already settled when the code is here: React.lazy then renders without suspending.
  const Loaded = lazy(() =>
    loaded ? ({ then: (resolve: (module: { default: Screen }) => void) => resolve(loaded!) } as Promise<{ default: Screen }>) : load(),
  );
  function LazyScreen(props: Record<string, unknown>) {
    return (
      <Suspense fallback={<ScreenLoading />}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  LazyScreen.displayName = `Lazy(${name})`;
  LazyScreen.load = load;
  return LazyScreen;
}

// The landing page and login stay in the entry chunk: they are the first screens, and a chunk of
// their own would cost one more round trip (about 0.6 s on a phone network) before the first paint.
const RegistrationScreen = lazyScreen(() => import('../screens/registration/RegistrationScreen'), 'RegistrationScreen');
const ProjectsScreen = lazyScreen(() => import('../screens/projects/ProjectsScreen'), 'ProjectsScreen');
const NewProjectScreen = lazyScreen(() => import('../screens/new-project/NewProjectScreen'), 'NewProjectScreen');
const SummaryScreen = lazyScreen(() => import('../screens/summary/SummaryScreen'), 'SummaryScreen');
const TaskListScreen = lazyScreen(() => import('../screens/task-list/TaskListScreen'), 'TaskListScreen');
const VideoMarkupScreen = lazyScreen(() => import('../screens/video-markup/VideoMarkupScreen'), 'VideoMarkupScreen');
const MultiVideoScreen = lazyScreen(() => import('../screens/multi-video/MultiVideoScreen'), 'MultiVideoScreen');
const PeriodEditScreen = lazyScreen(() => import('../screens/period-edit/PeriodEditScreen'), 'PeriodEditScreen');
const StatementScreen = lazyScreen(() => import('../screens/reports/statement/StatementScreen'), 'StatementScreen');
const StatementPdfScreen = lazyScreen(() => import('../screens/reports/statement/StatementScreen'), 'StatementPdfScreen');
const BlockReportScreen = lazyScreen(() => import('../screens/reports/block/BlockReportScreen'), 'BlockReportScreen');
const BlockReportPdfScreen = lazyScreen(() => import('../screens/reports/block/BlockReportScreen'), 'BlockReportPdfScreen');
const InteractiveScreen = lazyScreen(() => import('../screens/reports/interactive/InteractiveScreen'), 'InteractiveScreen');
const SharedInteractiveScreen = lazyScreen(() => import('../screens/reports/interactive/InteractiveScreen'), 'SharedInteractiveScreen');
const CalculatorScreen = lazyScreen(() => import('../screens/calculator/CalculatorScreen'), 'CalculatorScreen');
const MethodologyScreen = lazyScreen(() => import('../screens/methodology/MethodologyScreen'), 'MethodologyScreen');
const AdminScreen = lazyScreen(() => import('../screens/admin/AdminScreen'), 'AdminScreen');
// The public pages besides the landing (docs/site.md), a chunk each.
const ProductsScreen = lazyScreen(() => import('../screens/site/ProductsScreen'), 'ProductsScreen');
const HrScreen = lazyScreen(() => import('../screens/site/HrScreen'), 'HrScreen');
const AiScreen = lazyScreen(() => import('../screens/site/AiScreen'), 'AiScreen');
const EvanScreen = lazyScreen(() => import('../screens/site/EvanScreen'), 'EvanScreen');
const DemoScreen = lazyScreen(() => import('../screens/site/DemoScreen'), 'DemoScreen');
const ReportExampleScreen = lazyScreen(() => import('../screens/site/ReportExampleScreen'), 'ReportExampleScreen');
const NewsScreen = lazyScreen(() => import('../screens/site/NewsScreen'), 'NewsScreen');
const ServicesScreen = lazyScreen(() => import('../screens/site/ServicesScreen'), 'ServicesScreen');
const LegalScreen = lazyScreen(() => import('../screens/site/LegalScreen'), 'LegalScreen');
// maplibre, pmtiles and Terra Draw load with this screen only.
const MapScreen = lazyScreen(() => import('../screens/map/MapScreen'), 'MapScreen');
// Vision (docs/vision.md): onnxruntime-web loads with these screens only, in a worker, when a model is chosen.
const ModelsScreen = lazyScreen(() => import('../screens/models/ModelsScreen'), 'ModelsScreen');
const ModelScreen = lazyScreen(() => import('../screens/models/ModelScreen'), 'ModelScreen');
const StandLocationsScreen = lazyScreen(() => import('../screens/stands/StandLocationsScreen'), 'StandLocationsScreen');
const StandsScreen = lazyScreen(() => import('../screens/stands/StandsScreen'), 'StandsScreen');
const EventAnalyticsScreen = lazyScreen(() => import('../screens/event-analytics/EventAnalyticsScreen'), 'EventAnalyticsScreen');
const SharedEventScreen = lazyScreen(() => import('../screens/event-analytics/SharedEventScreen'), 'SharedEventScreen');
const NormCardScreen = lazyScreen(() => import('../screens/norms/NormCardScreen'), 'NormCardScreen');
const LineBalanceScreen = lazyScreen(() => import('../screens/norms/LineBalanceScreen'), 'LineBalanceScreen');
const LiveBoardScreen = lazyScreen(() => import('../screens/live-board/LiveBoardScreen'), 'LiveBoardScreen');
const SharedLiveBoardScreen = lazyScreen(() => import('../screens/live-board/LiveBoardScreen'), 'SharedLiveBoardScreen');

/**
 * Every row of spec 01 §2 and spec 02 §2 "Full route table". Hash routes: /#/markup/7.
 * Order matters only where paths overlap (the longer statement variant first).
 */
export const routes: AppRoute[] = [
  { path: '/', screen: LandingScreen },
  { path: '/login', screen: LoginScreen },
  { path: '/registration', screen: RegistrationScreen },
  { path: '/projects/:structureId?', screen: ProjectsScreen, private: true, title: 'Проекты' },
  { path: '/project', screen: NewProjectScreen, private: true, title: 'Новый проект' },
  { path: '/summary', screen: SummaryScreen, private: true, title: 'Сводка' },
  { path: '/markup/:structureId', screen: TaskListScreen, private: true, title: 'Задачи разметки' },
  {
    path: '/video/:videoId/:getTime?',
    screen: VideoMarkupScreen,
    private: true,
    title: 'Разметка видео',
    start: ({ videoId }) => startMarkupReads(Number(videoId)),
  },
  { path: '/multi-video', screen: MultiVideoScreen, private: true, title: 'Несколько камер' },
  { path: '/edit/:structureId/:timeFrom/:timeTo', screen: PeriodEditScreen, private: true, title: 'Правка периода' },
  { path: '/statement/:structureId/:employeeId/:fromTime/:toTime/pdf', screen: StatementPdfScreen, private: true, title: 'Ведомость', start: startStatement },
  { path: '/statement/:structureId/:employeeId/:fromTime/:toTime', screen: StatementScreen, private: true, title: 'Ведомость', start: startStatement },
  { path: '/report/:structureId/:fromTime/:toTime', screen: BlockReportScreen, private: true, title: 'Отчёт' },
  { path: '/pdf/report/:structureId/:fromTime/:toTime', screen: BlockReportPdfScreen, private: true, title: 'Отчёт' },
  { path: '/interactive/:structureId/:from/:to', screen: InteractiveScreen, private: true, title: 'Отчёт' },
  { path: '/demo/:shareKey', screen: SharedInteractiveScreen },
  { path: '/calculator', screen: CalculatorScreen },
  { path: '/models/:videoId', screen: ModelsScreen, private: true, title: 'Модели' },
  { path: '/models-stand-locations/:videoId', screen: StandLocationsScreen, private: true, title: 'Расположения' },
  { path: '/models-stands/:structureId', screen: StandsScreen, private: true, title: 'Стенды' },
  /** A hall's event analytics (issue 44, docs/event-analytics.md «Экран»). */
  { path: '/event-analytics/:structureId', screen: EventAnalyticsScreen, private: true, title: 'Аналитика' },
  /** A hall's event analytics opened by a share key: read-only, without a login (docs/event-analytics.md «Ссылка „поделиться“»). */
  { path: '/event-share/:shareKey', screen: SharedEventScreen },
  { path: '/model/:modelId', screen: ModelScreen, private: true, title: 'Модель' },
  { path: '/ciblock/map', screen: MapScreen, private: true, title: 'Карта' },
  { path: '/news', screen: NewsScreen },
  { path: '/services', screen: ServicesScreen },
  { path: '/products', screen: ProductsScreen },
  { path: '/hr', screen: HrScreen },
  { path: '/ai', screen: AiScreen },
  { path: '/evan', screen: EvanScreen },
  { path: '/report-example', screen: ReportExampleScreen },
  /** The demo page of spec 01 §1 (the route table names none; /demo/{key} is the shared report). */
  { path: '/demo', screen: DemoScreen },
  /** Legal documents (spec 01 §1): privacy, terms, consent. */
  { path: '/legal/:doc', screen: LegalScreen },
  { path: '/methodology', screen: MethodologyScreen },
  /** Administration of the organisation (not in the specs; admin role). */
  { path: '/admin', screen: AdminScreen, private: true, title: 'Администрирование' },
  /** Norm cards of a structure (issue 29, docs/norms.md). */
  { path: '/norms/:structureId/line/:cardId', screen: LineBalanceScreen, private: true, title: 'Баланс линии' },
  { path: '/norms/:structureId', screen: NormCardScreen, private: true, title: 'Нормы' },
  /** The live board «Смена сейчас» of a structure and its share link (issue 45, docs/live-cameras.md «Доска»). */
  { path: '/live/:structureId', screen: LiveBoardScreen, private: true, title: 'Смена сейчас' },
  { path: '/live-share/:shareKey', screen: SharedLiveBoardScreen },
];

/** The title of the signed-in screen at this route (`/projects/3`), or null (a public page). */
export function routeTitleAt(path: string): string | null {
  return routes.find((r) => matchRoute(parse, r.path, path)[0])?.title ?? null;
}

/**
 * Loads ahead the code of the screen at this hash address, when it is one loaded on demand; resolves
 * at once otherwise. For a page that links that screen's chunks itself (the shared report's link,
 * api/src/report/share-page.ts): src/main.tsx waits for them before the first render, so the report
 * is the first thing drawn, not a «Загрузка…» that must stay up for React's 300 ms.
 */
export function loadScreenAt(hash: string): Promise<unknown> {
  const path = `/${hash.replace(/^#?\/?/, '')}`.split('?')[0]!;
  const route = routes.find((r) => matchRoute(parse, r.path, path)[0]);
  const screen = route?.screen as Partial<LazyScreen> | undefined;
  return screen?.load ? screen.load() : Promise.resolve();
}

/**
 * Starts the work of the screen at this hash address that need not wait for its code or for React
 * (a route's `start`: the statement's worker and read), so that it runs beside the app's own start.
 * src/main.tsx calls it once, before the first render.
 */
export function startScreenWorkAt(hash: string): void {
  const path = `/${hash.replace(/^#?\/?/, '')}`;
  for (const route of routes) {
    const [matched, params] = matchRoute(parse, route.path, path);
    if (!matched) continue;
    route.start?.(params as Record<string, string | undefined>);
    return;
  }
}
