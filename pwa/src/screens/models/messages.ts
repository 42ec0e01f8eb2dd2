import type { VisionMessages } from '../../api/types';

/** Spec 02 §5 texts, word for word (the contract's type checks each against the server's). */
export const VISION_TEXT: VisionMessages = {
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
};
