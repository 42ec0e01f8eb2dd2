/**
 * Spec 02 §5 texts, word for word: the server answers them as 400/404 messages where it enforces
 * the rule (api/src/vision/), the PWA shows them where it checks the same before asking
 * (pwa/src/screens/models/, stands/). One definition for both.
 */
export const VISION_MESSAGES = {
  areaMissing: 'Этой области нет в списке!',
  modelMissing: 'Этой модели нет в списке!',
  locationMissing: 'Этой локации нет в списке!',
  chooseStand: 'Надо выбрать стенд или базис',
  needPoint: 'Надо получить кадр и выбрать хотя бы одну точку',
  chooseObject: 'Надо выбрать объект',
  needRectangle: 'Надо получить кадр и выбрать прямоугольник',
  needName: 'Надо ввести имя',
  needAreaName: 'Надо заполнить имя области',
  needAreaRectangle: 'Надо получить кадр и обвести хотя бы один прямоугольник',
  chooseWorkplace: 'Выберите рабочее место для разметки',
} as const;
