import type { ComponentType } from 'react';
import { LandingScreen } from '../screens/landing/LandingScreen';
import { LoginScreen } from '../screens/login/LoginScreen';
import { MethodologyScreen } from '../screens/methodology/MethodologyScreen';
import { placeholders } from '../screens/placeholders/placeholders';
import { MultiVideoScreen } from '../screens/multi-video/MultiVideoScreen';
import { NewProjectScreen } from '../screens/new-project/NewProjectScreen';
import { ProjectsScreen } from '../screens/projects/ProjectsScreen';
import { RegistrationScreen } from '../screens/registration/RegistrationScreen';
import { BlockReportPdfScreen, BlockReportScreen } from '../screens/reports/block/BlockReportScreen';
import { InteractiveScreen, SharedInteractiveScreen } from '../screens/reports/interactive/InteractiveScreen';
import { StatementPdfScreen, StatementScreen } from '../screens/reports/statement/StatementScreen';
import { TaskListScreen } from '../screens/task-list/TaskListScreen';
import { AdminScreen } from '../screens/admin/AdminScreen';
import { PeriodEditScreen } from '../screens/period-edit/PeriodEditScreen';
import { SummaryScreen } from '../screens/summary/SummaryScreen';
import { VideoMarkupScreen } from '../screens/video-markup/VideoMarkupScreen';

export interface AppRoute {
  path: string;
  screen: ComponentType<any>;
  /** Needs a signed-in user. */
  private?: boolean;
}

/**
 * Every row of spec 01 §2 and spec 02 §2 "Full route table". Hash routes: /#/markup/7.
 * Order matters only where paths overlap (the longer statement variant first).
 */
export const routes: AppRoute[] = [
  { path: '/', screen: LandingScreen },
  { path: '/login', screen: LoginScreen },
  { path: '/registration', screen: RegistrationScreen },
  { path: '/projects/:structureId?', screen: ProjectsScreen, private: true },
  { path: '/project', screen: NewProjectScreen, private: true },
  { path: '/summary', screen: SummaryScreen, private: true },
  { path: '/markup/:structureId', screen: TaskListScreen, private: true },
  { path: '/video/:videoId/:getTime?', screen: VideoMarkupScreen, private: true },
  { path: '/multi-video', screen: MultiVideoScreen, private: true },
  { path: '/edit/:structureId/:timeFrom/:timeTo', screen: PeriodEditScreen, private: true },
  { path: '/statement/:structureId/:employeeId/:fromTime/:toTime/pdf', screen: StatementPdfScreen, private: true },
  { path: '/statement/:structureId/:employeeId/:fromTime/:toTime', screen: StatementScreen, private: true },
  { path: '/report/:structureId/:fromTime/:toTime', screen: BlockReportScreen, private: true },
  { path: '/pdf/report/:structureId/:fromTime/:toTime', screen: BlockReportPdfScreen, private: true },
  { path: '/interactive/:structureId/:from/:to', screen: InteractiveScreen, private: true },
  { path: '/demo/:shareKey', screen: SharedInteractiveScreen },
  { path: '/calculator', screen: placeholders.calculator },
  { path: '/models/:videoId', screen: placeholders.models, private: true },
  { path: '/models-stand-locations/:videoId', screen: placeholders.standLocations, private: true },
  { path: '/models-stands/:structureId', screen: placeholders.stands, private: true },
  { path: '/model/:modelId', screen: placeholders.model, private: true },
  { path: '/ciblock/map', screen: placeholders.map, private: true },
  { path: '/news', screen: placeholders.news },
  { path: '/services', screen: placeholders.services },
  { path: '/products', screen: placeholders.products },
  { path: '/hr', screen: placeholders.hr },
  { path: '/ai', screen: placeholders.ai },
  { path: '/evan', screen: placeholders.evan },
  { path: '/report-example', screen: placeholders.reportExample },
  { path: '/methodology', screen: MethodologyScreen },
  /** Administration of the organisation (not in the specs; admin role). */
  { path: '/admin', screen: AdminScreen, private: true },
];
