import { ScreenPlaceholder } from '../../ui/Placeholder';

/** Screens that later capabilities build; each says what it will hold. */
type Params = Record<string, string | undefined>;

export const placeholders = {
  calculator: () => (
    <ScreenPlaceholder
      title="Калькулятор производительности"
      will={[
        'Тип производства и признак средней операции короче 10 секунд',
        'Данные компании, расчёт экономии и график',
        'Панели администратора: значения по умолчанию, оборудование, лицензия',
      ]}
    />
  ),
  models: ({ videoId }: Params) => (
    <ScreenPlaceholder
      title={`Обучение моделей по видео № ${videoId}`}
      will={['Таблица моделей с прогрессом, применением и удалением', 'Форма запуска обучения', 'Области видео: рисование прямоугольника на кадре']}
    />
  ),
  standLocations: ({ videoId }: Params) => (
    <ScreenPlaceholder
      title={`Разметка расположений по видео № ${videoId}`}
      will={['Расположения стендов и подвижных объектов', 'Кадр видео с отметками стендов и найденных людей']}
    />
  ),
  stands: ({ structureId }: Params) => (
    <ScreenPlaceholder title={`Стенды и базисы структуры № ${structureId}`} will={['Таблица стендов: имя, x, y', 'Форма добавления стенда или базиса']} />
  ),
  model: ({ modelId }: Params) => <ScreenPlaceholder title={`Модель № ${modelId}`} will={['Название модели и отчёт об обучении']} />,
};
