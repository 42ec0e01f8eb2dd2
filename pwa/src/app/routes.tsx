import type { ComponentType } from 'react';
import { LandingScreen } from '../screens/landing/LandingScreen';
import { LoginScreen } from '../screens/login/LoginScreen';
import { MethodologyScreen } from '../screens/methodology/MethodologyScreen';
import { placeholders } from '../screens/placeholders/placeholders';
import { MultiVideoScreen } from '../screens/multi-video/MultiVideoScreen';
import { NewProjectScreen } from '../screens/new-project/NewProjectScreen';
import { ProjectsScreen } from '../screens/projects/ProjectsScreen';
import { RegistrationScreen } from '../screens/registration/RegistrationScreen';
import { TaskListScreen } from '../screens/task-list/TaskListScreen';
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
  { path: '/summary', screen: placeholders.summary, private: true },
  { path: '/markup/:structureId', screen: TaskListScreen, private: true },
  { path: '/video/:videoId/:getTime?', screen: VideoMarkupScreen, private: true },
  { path: '/multi-video', screen: MultiVideoScreen, private: true },
  { path: '/edit/:structureId/:timeFrom/:timeTo', screen: placeholders.periodEdit, private: true },
  { path: '/statement/:structureId/:employeeId/:fromTime/:toTime/pdf', screen: placeholders.statement, private: true },
  { path: '/statement/:structureId/:employeeId/:fromTime/:toTime', screen: placeholders.statement, private: true },
  { path: '/report/:structureId/:fromTime/:toTime', screen: placeholders.blockReport, private: true },
  { path: '/pdf/report/:structureId/:fromTime/:toTime', screen: placeholders.blockReport, private: true },
  { path: '/interactive/:structureId/:from/:to', screen: placeholders.interactive, private: true },
  { path: '/demo/:key', screen: placeholders.interactive },
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
];
