/**
 * One contract (docs/architecture.md «Один контракт»): the request and reply types of the API,
 * read straight from its zod schemas, for the PWA. The PWA imports this file with `import type`
 * only, so no API code reaches its bundle; a schema change that breaks a screen fails
 * `tsc -p pwa/tsconfig.json`. Everything reachable from here must stay free of Bun and the
 * database (the PWA typecheck has neither): schema files import zod, http/params.ts and
 * http/time.ts, never routes or services.
 *
 * `Reply<S>` is what the server sends (z.output: defaults applied, transforms run);
 * `Body<S>` is what a client may send (z.input: defaulted fields optional).
 */
import type { z } from '@hono/zod-openapi';
import type * as admin from './admin/schema';
import type * as auth from './auth/schema';
import type * as calculator from './calculator/schema';
import type * as events from './events/schema';
import type * as eventShare from './events/share.schema';
import type * as jobs from './jobs/schema';
import type * as live from './live/schema';
import type * as liveBoard from './live/board.schema';
import type * as map from './map/schema';
import type * as markup from './markup/schema';
import type * as norms from './norms/schema';
import type * as periodMarkups from './markup/period-markups.schema';
import type * as tasks from './markup/tasks.schema';
import type * as org from './org/schema';
import type * as report from './report/schema';
import type * as site from './site/schema';
import type * as summary from './summary/schema';
import type * as video from './video/schema';
import type * as vision from './vision/schema';

export type { ErrorBody as ApiErrorBody } from './http/errors';

type Reply<S extends z.ZodType> = z.output<S>;
type Body<S extends z.ZodType> = z.input<S>;

// auth
export type CurrentUser = Reply<typeof auth.WhoAmI>;
export type Role = CurrentUser['role'];
export type Permission = CurrentUser['permissions'][number];
export type InstanceInfo = Reply<typeof auth.InstanceInfo>;
export type RegistrationBody = Body<typeof auth.RegistrationSchema>;
export type LoginBody = Body<typeof auth.LoginBody>;

// org
export type Structure = Reply<typeof org.StructureSchema>;
export type NamedItem = Reply<typeof org.NamedItem>;
export type StructureSettings = Reply<typeof org.StructureSettingsReply>;
export type StructureSettingsSave = Body<typeof org.StructureSettingsSave>;
export type OrganizationSettings = Reply<typeof org.OrganizationSettings>;
export type OrganizationSave = Body<typeof org.OrganizationSave>;
export type TimeZonePreview = Reply<typeof org.TimeZonePreview>;
export type OperationsReply = Reply<typeof org.OperationsReply>;
export type OperationsSave = Body<typeof org.OperationsSave>;

// admin
export type AdminUser = Reply<typeof admin.AdminUser>;
export type AdminUsersReply = Reply<typeof admin.AdminUsersReply>;
export type AdminStructure = Reply<typeof admin.AdminStructure>;
export type AdminCamera = Reply<typeof admin.AdminCamera>;
export type CameraCreate = Body<typeof admin.CameraCreate>;

// markup
export type VideoMarkupsReply = Reply<typeof markup.VideoMarkupsReply>;
export type VideoMarkupsSave = Body<typeof markup.VideoMarkupsSave>;
export type VideoMarkupsChanges = Reply<typeof markup.VideoMarkupsChanges>;
export type AvailableOperations = Reply<typeof markup.AvailableOperations>;
export type PeriodMarkupRow = Reply<typeof periodMarkups.PeriodMarkupRow>;
export type PeriodMarkupsSave = Body<typeof periodMarkups.PeriodMarkupsSave>;
export type TaskRow = Reply<typeof tasks.TaskRow>;
export type TaskList = Reply<typeof tasks.TaskList>;
export type TaskOption = Body<typeof tasks.TasksQuery>['option'] & string;

// video
export type SyncResult = Reply<typeof video.SyncResult>;
export type UploadResult = Reply<typeof video.UploadResult>;
export type RecordingStart = Reply<typeof video.RecordingStart>;
export type VideoMeta = Reply<typeof video.VideoMeta>;
export type OtherVideo = Reply<typeof video.OtherVideo>;
export type Activity = Reply<typeof video.Activity>;
export type Camera = Reply<typeof video.Camera>;
export type LoaderPackages = Reply<typeof video.LoaderPackages>;
export type LoaderPackage = LoaderPackages['packages'][number];
export type FailedVideo = Reply<typeof video.FailedVideo>;
export type RecordingWithoutStart = Reply<typeof video.RecordingWithoutStart>;

// jobs
export type Job = Reply<typeof jobs.Job>;

// calculator
export type ProductionType = Reply<typeof calculator.ProductionTypeParam>;
export type RequiredMeasurements = Reply<typeof calculator.RequiredMeasurementsReply>;
export type CalculatorPublicOutput = Reply<typeof calculator.PublicOutput>;
export type CalculatorPrivateOutput = Reply<typeof calculator.PrivateOutput>;
export type CalculatorGearTable = Reply<typeof calculator.GearTable>;
export type CalculatorDays = Reply<typeof calculator.DaysReply>;
export type CalculatorMeasurementGraph = Reply<typeof calculator.MeasurementGraph>;
export type CalculatorDefaults = Reply<typeof calculator.DefaultsReply>;
export type CalculatorLicense = Reply<typeof calculator.LicenseReply>;
export type CalculatorSetting = CalculatorDefaults['defaults'][number];
export type CalculatorGearDefaults = Reply<typeof calculator.GearDefaultsReply>;
export type CalculatorDefaultsUpdate = Body<typeof calculator.UpdateDefaultsBody>;
/** POST /api/v2/update_calculator_defaults answers all three panels at once (the route extends GearDefaultsReply so). */
export type CalculatorSettings = CalculatorGearDefaults & Pick<CalculatorDefaults, 'defaults'> & Pick<CalculatorLicense, 'license'>;

// report
export type ReportDates = Reply<typeof report.ReportDates>;
export type ReferenceStability = Reply<typeof report.ReferenceStability>;
export type ReferenceStabilityBody = Body<typeof report.ReferenceStabilityBody>;
export type StatementReport = Reply<typeof report.StatementReport>;
export type BlockReport = Reply<typeof report.BlockReport>;
export type ReportBlock = Reply<typeof report.ReportBlock>;
export type InteractiveFrv = Reply<typeof report.InteractiveFrv>;
export type VideoSegment = Reply<typeof report.VideoSegment>;
export type ReportInputsReply = Reply<typeof report.ReportInputs>;
export type ResolvedShare = Reply<typeof report.ResolvedShare>;
/** POST /api/v1/generate_hash: the structure and window the key opens. */
export type ShareBody = Body<typeof report.ReportWindowQuery>;

// summary
export type SummaryReply = Reply<typeof summary.SummaryReply>;

// map (spec 02 §2–§4, §7)
export type MapFeature = Reply<typeof map.Feature>;
export type MapFeatureCollection = Reply<typeof map.FeatureCollection>;
export type MapFeatureType = MapFeature['properties']['type'];
export type MapProject = Reply<typeof map.MapProject>;
export type MapProjectsListReply = Reply<typeof map.MapProjectsListReply>;
export type MapAlgoTag = Reply<typeof map.AlgoBody>['algo_tag'];
export type DwgBuildBody = Body<typeof map.DwgBuildBody>;
export type HtmlMenuReply = Reply<typeof map.HtmlMenuReply>;
export type MapTypeStyle = Reply<typeof map.TypeStyle>;
export type MapProjectCrsSetBody = Body<typeof map.CrsBody>;

// site (spec 01 §1, §2 contact form, §5, §7 feedback, §8; docs/site.md)
export type FeedbackBody = Body<typeof site.FeedbackBody>;
export type FeedbackItem = Reply<typeof site.FeedbackItem>;
export type FeedbackList = Reply<typeof site.FeedbackList>;
export type FeedbackListQuery = Body<typeof site.FeedbackListQuery>;
export type FeedbackHandledBody = Body<typeof site.FeedbackHandledBody>;

// vision (spec 02 §3, §5, §7 "Models, areas, locations"; docs/vision.md)
export type VisionModel = Reply<typeof vision.ModelItem>;
export type MarkerTrainingBody = Body<typeof vision.TrainingBody>;
export type VideoArea = Reply<typeof vision.VideoArea>;
export type VideoAreaBody = Body<typeof vision.VideoAreaBody>;
export type PictureCheck = Reply<typeof vision.PictureCheckReply>;
export type Stand = Reply<typeof vision.Stand>;
export type StandsBody = Body<typeof vision.StandsBody>;
export type MovablesReply = Reply<typeof vision.MovablesReply>;
export type StandLocation = Reply<typeof vision.StandLocation>;
export type StandLocationBody = Body<typeof vision.StandLocationBody>;
export type MovableLocation = Reply<typeof vision.MovableLocation>;
export type MovableLocationBody = Body<typeof vision.MovableLocationBody>;
export type AbsoluteLocationBody = Body<typeof vision.AbsoluteLocationBody>;
export type HumansReply = Reply<typeof vision.HumansReply>;

// norms (issue 29)
export type NormCard = Reply<typeof norms.NormCard>;
export type NormList = Reply<typeof norms.NormList>;
export type NormDiff = Reply<typeof norms.NormDiff>;
export type NormParams = Reply<typeof norms.NormParams>;
export type LineScenarios = Reply<typeof norms.LineScenarios>;
export type NormFulfilment = Reply<typeof norms.Fulfilment>;

// event analytics (issue 44; docs/event-analytics.md; @public: calls no screen makes yet — the track list, the zone edit)
export type Tracking = Reply<typeof events.TrackingReply>;
/** @public */
export type HallTrackings = Reply<typeof events.HallTrackingsReply>;
/** @public */
export type TrackingRun = Reply<typeof events.TrackingRun>;
/** @public */
export type TrackingBody = Body<typeof events.TrackingBody>;
/** @public */
export type EventTracks = Reply<typeof events.EventTracksReply>;
export type Calibration = Reply<typeof events.Calibration>;
export type CalibrationBody = Body<typeof events.CalibrationBody>;
export type EventZone = Reply<typeof events.Zone>;
export type EventZoneBody = Body<typeof events.ZoneBody>;
/** @public */
export type EventZoneUpdateBody = Body<typeof events.ZoneUpdateBody>;
export type EventFigures = Reply<typeof events.EventFiguresReply>;
/** @public */
export type EventFiguresPending = Reply<typeof events.EventFiguresPending>;
export type EventFiguresStore = EventFiguresPending['stored'];
/** @public */
export type EventVisit = EventFigures['dwell'][number]['visit_moments'][number];
export type EventShareBody = Body<typeof eventShare.EventShareBody>;
export type SharedEventFigures = Reply<typeof eventShare.SharedEventFigures>;

// live cameras (issue 45; docs/live-cameras.md)
export type CameraStream = Reply<typeof live.CameraStream>;
export type StreamSettingsBody = Body<typeof live.StreamSettingsBody>;
export type StreamCheck = Reply<typeof live.StreamCheck>;
/** @public */
export type LiveModelBody = Body<typeof live.LiveModelBody>;
/** @public */
export type LiveLabels = Reply<typeof live.LiveLabels>;
export type StructureHealth = Reply<typeof live.StructureHealthReply>;
export type LiveModelChoices = Reply<typeof live.LiveModelChoices>;

// the live board «Смена сейчас» (issue 45; docs/live-cameras.md «Доска»)
export type LiveBoard = Reply<typeof liveBoard.LiveBoard>;
export type LiveBoardShareBody = Body<typeof liveBoard.LiveBoardShareBody>;
