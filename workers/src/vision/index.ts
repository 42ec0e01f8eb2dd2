/** Vision (issue 14; docs/vision.md): frame decoding, area features, the classifier, ONNX, smoothing, people on a frame. */
export { argmaxRows, predict, trainClassifier, type Classifier, type TrainOptions, type TrainResult } from './classifier';
export { evaluateLabels, permutationImportance, type ClassMetrics, type Evaluation } from './evaluate';
export { AreaFeatureExtractor, FEATURES_PER_AREA, featureNames, toWorkRect, type FeatureMatrix, type PixelRect, type SourceRect } from './features';
export { decodeFrames, FrameDecodeError, samplingArguments, workSize, type Sampling } from './frames';
export {
  BACKGROUND_DETECTOR,
  detectByBackground,
  detectByOnnx,
  findBlobs,
  foregroundMask,
  medianBackground,
  ONNX_DETECTOR,
  ONNX_DETECTOR_CONTRACT,
  type DetectedHuman,
  type SourceVideo,
} from './humans';
export { matchFrame, precisionRecall, type DetectionCounts, type LabelledPerson, type ScoredBox } from './detection-metrics';
export {
  decodeMoveNet,
  iou,
  KEYPOINT_NAMES,
  mergeOverlapping,
  MOVENET_COLUMNS,
  MOVENET_MIN_SCORE,
  movenetInputSize,
  stripTiles,
  type Keypoint,
  type PosedHuman,
  type Tile,
} from './movenet-decode';
export {
  decodeMoveNetFrame,
  detectByMoveNet,
  MOVENET_DETECTOR,
  MOVENET_MODEL_DIR,
  moveNetModel,
  moveNetPeople,
  moveNetStrips,
  runMoveNet,
  type MoveNetFrame,
} from './movenet';
export { exportOnnx, INPUT_NAME, ONNX_OPSET, OUTPUT_NAME } from './onnx-export';
export { readOnnxMetadata } from './onnx-metadata';
export { loadClassifier, ModelLoadError, type OnnxClassifier } from './onnx-runtime';
export {
  applyOperationModel,
  backgroundShortfall,
  DEFAULT_FPS,
  DEFAULT_SMOOTHING,
  extractSpanFeatures,
  reportText,
  stepLabels,
  trainOperationModel,
  type AppliedSegment,
  type LabelSpan,
  type SourceVideoFile,
  type TestSpan,
  type TrainingReport,
  type VisionArea,
  type VisionClass,
  type VisionSpec,
} from './pipeline';
export { DEFAULT_POSE_SAMPLING, POSE_FEATURES_PER_AREA, POSE_GROUPS, poseFeatureNames, poseFeatures, poseSampleOf, type PoseSampling } from './pose-features';
export {
  ASPECT_TOLERANCE,
  checkPicture,
  VIEW_MIN_DETAIL,
  VIEW_MOVED_BELOW,
  VIEW_WITHOUT_DETAILS,
  viewDetail,
  viewSignature,
  viewSimilarity,
  type PictureCheck,
  type ViewSignature,
} from './view-check';
export { IncrementalSmoother, segmentsOf, smoothPredictions, type Segment, type SettledClass, type SmoothingOptions } from './smoothing';
